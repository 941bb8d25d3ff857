/**
 * Deep copies of values: plain documents and arrays are copied, mutable BSON values (Date,
 * Binary) are copied, immutable BSON wrappers (ObjectId, Long, Decimal128, Double, Timestamp,
 * BSONRegExp, MinKey, ...) are shared.
 */
import { Binary, bsonTag } from '../../bson/library.js';

/** A deep copy of `v` (see module comment). */
export function cloneValue<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneValue(v[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
    const src = v as Record<string, unknown>;
    for (const k in src) {
      if (k === '__proto__') {
        Object.defineProperty(out, k, { value: cloneValue(src[k]), writable: true, enumerable: true, configurable: true });
      } else {
        out[k] = cloneValue(src[k]);
      }
    }
    return out as T;
  }
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (bsonTag(v) === 'Binary') {
    const b = v as unknown as Binary;
    return new Binary(b.buffer.slice(0, b.position), b.sub_type) as T;
  }
  return v;
}
