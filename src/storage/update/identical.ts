/**
 * Exact BSON equality ("binary equal values"): same type and same value, documents with the
 * same fields in the same order. This is what decides whether an update modified a document
 * (setting Int32 1 over Double 1.0 IS a modification; -0.0 differs from 0.0).
 */
import type { Binary, Decimal128, Document } from '../../bson/library.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { toDouble } from '../values/numeric.js';

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when `a` and `b` would serialise to the same BSON bytes. */
export function identicalValues(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || Object.is(a, b);
  const t = bsonTypeOf(a);
  if (t !== bsonTypeOf(b)) return false;
  switch (t) {
    case 'double': {
      const x = toDouble(a);
      const y = toDouble(b);
      return Object.is(x, y);
    }
    case 'int':
      return toDouble(a) === toDouble(b);
    case 'long':
    case 'timestamp':
      return String(a) === String(b) && (a as { equals(o: unknown): boolean }).equals(b);
    case 'decimal':
      return sameBytes((a as Decimal128).bytes, (b as Decimal128).bytes);
    case 'string':
    case 'bool':
      return a === b;
    case 'null':
    case 'undefined':
    case 'minKey':
    case 'maxKey':
      return true;
    case 'date':
      return Object.is((a as Date).getTime(), (b as Date).getTime());
    case 'objectId':
      return (a as { toHexString(): string }).toHexString() === (b as { toHexString(): string }).toHexString();
    case 'binData': {
      const x = a as Binary;
      const y = b as Binary;
      return x.sub_type === y.sub_type && sameBytes(x.buffer.subarray(0, x.position), y.buffer.subarray(0, y.position));
    }
    case 'regex': {
      const x = a as { pattern?: string; options?: string; source?: string; flags?: string };
      const y = b as { pattern?: string; options?: string; source?: string; flags?: string };
      return (x.pattern ?? x.source) === (y.pattern ?? y.source) && (x.options ?? x.flags) === (y.options ?? y.flags);
    }
    case 'symbol':
      return String((a as { value: unknown }).value) === String((b as { value: unknown }).value);
    case 'javascript':
    case 'javascriptWithScope': {
      const x = a as { code: string; scope?: Document | null };
      const y = b as { code: string; scope?: Document | null };
      return x.code === y.code && identicalValues(x.scope ?? null, y.scope ?? null);
    }
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!identicalValues(x[i], y[i])) return false;
      return true;
    }
    default:
      return identicalDocuments(a as Document, b as Document);
  }
}

/** True when two documents have the same fields, in the same order, with identical values. */
export function identicalDocuments(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!identicalValues(a[ka[i]!], b[kb[i]!])) return false;
  }
  return true;
}
