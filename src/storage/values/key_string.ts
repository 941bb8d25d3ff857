/**
 * A canonical string encoding of values: `keyString(a) === keyString(b)` exactly when
 * `compareValues(a, b) === 0`. Used as the key of the `_id` map and of unique indexes.
 * Numbers of every type encode by exact value (1, 1.0, Long(1), Decimal128('1.00') alike; -0 as 0;
 * all NaNs alike); strings and symbols alike; field names and order count in objects.
 * Under a collation (`collator`), strings, nested ones included, encode by their collation
 * class (`Collator.key`), so that strings equal under it share a key.
 */
import { bsonTag, type Binary, type BSONRegExp, type Code, type Long, type ObjectId, type ObjectIdWords, type Timestamp } from '../../bson/library.js';
import type { Collator } from './collator.js';
import { exactParts } from './compare.js';
import { doubleToExactParts, normaliseParts, compareParts, roundParts, type DecimalParts } from './decimal.js';

/** The canonical key of `v` (see module comment). */
export function keyString(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return numberKey(v);
    case 'string':
      return 's' + v;
    case 'object':
      if (v !== null && bsonTag(v) === 'BSONSymbol') {
        return 's' + String((v as { value: unknown }).value);
      }
      return encode(v, null);
    default:
      return encode(v, null);
  }
}

/** The canonical key of `v` under `collator` (null: `keyString`). */
export function collationKeyString(v: unknown, collator: Collator | null): string {
  if (collator === null) return keyString(v);
  switch (typeof v) {
    case 'number':
      return numberKey(v);
    case 'string':
      return 's' + (collator ? collator.key(v) : v);
    case 'object':
      if (v !== null && bsonTag(v) === 'BSONSymbol') {
        const s = String((v as { value: unknown }).value);
        return 's' + (collator ? collator.key(s) : s);
      }
      return encode(v, collator);
    default:
      return encode(v, collator);
  }
}

/** The key of a number that holds its own value exactly (`keyString` of an Int32 or a double). */
export function numberKey(n: number): string {
  // String(n) is unique per double and gives '0' for -0 and 'NaN' for NaN.
  return n === 0 ? 'n0' : 'n' + n;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hexOf(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
}

/**
 * An ObjectId's key: 'o' and its 12 bytes as one-byte characters (fixed length, so
 * self-delimiting). Every inserted document's `_id` goes through this: one flat 13-character
 * string, about three times cheaper than hex digits joined piece by piece.
 */
function objectIdKey(b: Uint8Array): string {
  return String.fromCharCode(111, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, b[8]!, b[9]!, b[10]!, b[11]!);
}

/** `objectIdKey` from the words bson 7 keeps (no 12-byte buffer built). */
function objectIdWordsKey(w: ObjectIdWords): string {
  return String.fromCharCode(
    111,
    (w.i0 >>> 16) & 255, (w.i0 >>> 8) & 255, w.i0 & 255,
    (w.i1 >>> 16) & 255, (w.i1 >>> 8) & 255, w.i1 & 255,
    (w.i2 >>> 16) & 255, (w.i2 >>> 8) & 255, w.i2 & 255,
    (w.i3 >>> 16) & 255, (w.i3 >>> 8) & 255, w.i3 & 255,
  );
}

/** Self-delimiting encoding (safe inside objects and arrays). */
function encode(v: unknown, collator?: Collator | null): string {
  switch (typeof v) {
    case 'number':
      return numberKey(v);
    case 'string':
      return 's' + JSON.stringify(collator ? collator.key(v) : v);
    case 'boolean':
      return v ? 'T' : 'F';
    case 'undefined':
      return 'u';
    case 'bigint':
      return exactNumberKey(exactParts(v));
    case 'object':
      break;
    default:
      return 'u';
  }
  if (v === null) return 'z';
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += encode(v[i], collator) + ',';
    return s + ']';
  }
  if (v instanceof Date) return 'd' + v.getTime();
  const tag = bsonTag(v);
  if (typeof tag === 'string') {
    switch (tag) {
      case 'ObjectId': {
        const w = v as ObjectIdWords;
        return typeof w.i3 === 'number' ? objectIdWordsKey(w) : objectIdKey((v as ObjectId).id);
      }
      case 'Double':
      case 'Int32':
        return numberKey((v as { value: number }).value);
      case 'Long': {
        const n = (v as Long).toNumber();
        if (Number.isSafeInteger(n)) return numberKey(n);
        return exactNumberKey(exactParts(v));
      }
      case 'Decimal128':
        return exactNumberKey(exactParts(v));
      case 'Binary': {
        const b = v as Binary;
        return 'b' + b.sub_type + ':' + hexOf(b.buffer.subarray(0, b.position)) + ';';
      }
      case 'Timestamp':
        return 't' + (v as Timestamp).t + ':' + (v as Timestamp).i + ';';
      case 'BSONRegExp':
        return 'r' + JSON.stringify((v as BSONRegExp).pattern) + JSON.stringify((v as BSONRegExp).options);
      case 'BSONSymbol': {
        const str = String((v as { value: unknown }).value);
        return 's' + JSON.stringify(collator ? collator.key(str) : str);
      }
      case 'Code': {
        const c = v as Code;
        if (c.scope != null) return 'C' + JSON.stringify(c.code) + encode(c.scope);
        return 'c' + JSON.stringify(c.code);
      }
      case 'MinKey':
        return 'm';
      case 'MaxKey':
        return 'M';
    }
  }
  if (v instanceof RegExp) return 'r' + JSON.stringify(v.source) + JSON.stringify(v.flags);
  let s = '{';
  const obj = v as Record<string, unknown>;
  for (const k in obj) s += JSON.stringify(k) + ':' + encode(obj[k], collator) + ',';
  return s + '}';
}

/** Key of an exact numeric value: the double's key when the value is a double, else x<coef>e<exp>. */
function exactNumberKey(p: DecimalParts): string {
  if (p.kind === 'nan') return 'nNaN';
  if (p.kind === 'inf') return p.negative ? 'n-Infinity' : 'nInfinity';
  if (p.coefficient === 0n) return 'n0';
  const approx = Number((p.negative ? '-' : '') + p.coefficient.toString() + 'e' + p.exponent);
  // Equal to a double when exact (Int64) or, for Decimal128, equal to the double rounded to 34
  // digits, which is how mongod compares a Decimal128 with a double.
  if (Number.isFinite(approx)) {
    const asDouble = doubleToExactParts(approx);
    if (compareParts(asDouble, p) === 0 || compareParts(roundParts(asDouble, 34), p) === 0) {
      return numberKey(approx);
    }
  }
  const n = normaliseParts(p) as Extract<DecimalParts, { kind: 'finite' }>;
  return 'x' + (n.negative ? '-' : '') + n.coefficient.toString() + 'e' + n.exponent;
}
