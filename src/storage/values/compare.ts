/**
 * MongoDB's total order over BSON values (mongo/src/mongo/bson/bsonelement.cpp,
 * `compareElementValues`, and `canonicalizeBSONType` in bsontypes.h): values of different
 * canonical types order by type; numbers compare exactly across Int32/Int64/Double/Decimal128;
 * strings (and symbols) by UTF-8 bytes, or under a collation when a `Collator` is given (also
 * strings nested in arrays and documents; field names, regexes and code stay binary).
 */
import { bsonTag, type Binary, type BSONRegExp, type Code, type Decimal128, type Long, type ObjectId, type ObjectIdWords, type Timestamp } from '../../bson/library.js';
import type { Collator } from './collator.js';
import { compareParts, decodeDecimal, doubleToExactParts, roundParts, type DecimalParts } from './decimal.js';
import { TWO_POW_63 } from './numeric.js';

/** Canonical type ranks (the order of types in comparisons). */
export const TYPE_RANK = {
  minKey: -1,
  undefined: 0,
  null: 5,
  number: 10,
  string: 15,
  object: 20,
  array: 25,
  binData: 30,
  objectId: 35,
  bool: 40,
  date: 45,
  timestamp: 47,
  regex: 50,
  dbPointer: 55,
  javascript: 60,
  javascriptWithScope: 65,
  maxKey: 127,
} as const;

/** The canonical type rank of a value (values of equal rank compare by value). */
export function typeRank(v: unknown): number {
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return TYPE_RANK.number;
    case 'string':
      return TYPE_RANK.string;
    case 'boolean':
      return TYPE_RANK.bool;
    case 'undefined':
      return TYPE_RANK.undefined;
    case 'object':
      break;
    default:
      return TYPE_RANK.undefined;
  }
  if (v === null) return TYPE_RANK.null;
  if (Array.isArray(v)) return TYPE_RANK.array;
  if (v instanceof Date) return TYPE_RANK.date;
  const tag = bsonTag(v);
  if (typeof tag !== 'string') {
    if (v instanceof RegExp) return TYPE_RANK.regex;
    return TYPE_RANK.object;
  }
  switch (tag) {
    case 'ObjectId':
      return TYPE_RANK.objectId;
    case 'Double':
    case 'Int32':
    case 'Long':
    case 'Decimal128':
      return TYPE_RANK.number;
    case 'Binary':
      return TYPE_RANK.binData;
    case 'Timestamp':
      return TYPE_RANK.timestamp;
    case 'BSONRegExp':
      return TYPE_RANK.regex;
    case 'BSONSymbol':
      return TYPE_RANK.string;
    case 'Code':
      return (v as Code).scope != null ? TYPE_RANK.javascriptWithScope : TYPE_RANK.javascript;
    case 'MinKey':
      return TYPE_RANK.minKey;
    case 'MaxKey':
      return TYPE_RANK.maxKey;
    default:
      return TYPE_RANK.object;
  }
}

/** MongoDB's comparison of two values: -1, 0 or 1 (strings under `collator` when given). */
export function compareValues(a: unknown, b: unknown, collator?: Collator | null): number {
  if (typeof a === 'number' && typeof b === 'number') return compareDoubles(a, b);
  if (typeof a === 'string' && typeof b === 'string') return collator ? collator.compare(a, b) : compareStrings(a, b);
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  return compareSameRank(ra, a, b, collator);
}

/**
 * True when a collation can change how `v` compares: strings and symbols, and documents and
 * arrays, which may hold strings (mongod's CollationIndexKey::isCollatableType).
 */
export function isCollatable(v: unknown): boolean {
  if (typeof v === 'string') return true;
  const rank = typeRank(v);
  return rank === TYPE_RANK.string || rank === TYPE_RANK.object || rank === TYPE_RANK.array;
}

/** True when `a` and `b` compare equal (1 == 1.0 == Long(1) == Decimal128('1')). */
export function valuesEqual(a: unknown, b: unknown, collator?: Collator | null): boolean {
  if (a === b) return true;
  return compareValues(a, b, collator) === 0;
}

/** Compares two values known to share the canonical rank `rank`. */
export function compareSameRank(rank: number, a: unknown, b: unknown, collator?: Collator | null): number {
  switch (rank) {
    case TYPE_RANK.number:
      return compareNumbers(a, b);
    case TYPE_RANK.string:
      return collator ? collator.compare(stringOf(a), stringOf(b)) : compareStrings(stringOf(a), stringOf(b));
    case TYPE_RANK.object:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>, collator);
    case TYPE_RANK.array:
      return compareArrays(a as unknown[], b as unknown[], collator);
    case TYPE_RANK.binData:
      return compareBinary(a as Binary, b as Binary);
    case TYPE_RANK.objectId:
      return compareObjectIds(a as ObjectId, b as ObjectId);
    case TYPE_RANK.bool:
      return a === b ? 0 : a ? 1 : -1;
    case TYPE_RANK.date:
      return compareDoubles((a as Date).getTime(), (b as Date).getTime());
    case TYPE_RANK.timestamp:
      return compareTimestamps(a as Timestamp, b as Timestamp);
    case TYPE_RANK.regex: {
      const ra = regexParts(a);
      const rb = regexParts(b);
      return compareStrings(ra[0], rb[0]) || compareStrings(ra[1], rb[1]);
    }
    case TYPE_RANK.javascript:
      return compareStrings((a as Code).code, (b as Code).code);
    case TYPE_RANK.javascriptWithScope:
      return (
        compareStrings((a as Code).code, (b as Code).code) ||
        compareObjects((a as Code).scope as Record<string, unknown>, (b as Code).scope as Record<string, unknown>)
      );
    default:
      // minKey, maxKey, undefined, null: one value per type.
      return 0;
  }
}

/** Compares doubles: NaN equals NaN and is below every other number; -0 == 0. */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  if (a !== a) return b !== b ? 0 : -1;
  return 1;
}

/** Compares strings by their UTF-8 bytes (code point order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca < cb ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function stringOf(v: unknown): string {
  return typeof v === 'string' ? v : String((v as { value: unknown }).value);
}

/** Exact numeric comparison across Int32, Int64, Double and Decimal128. */
export function compareNumbers(a: unknown, b: unknown): number {
  const x = unwrapNumber(a);
  const y = unwrapNumber(b);
  if (typeof x === 'number') {
    if (typeof y === 'number') return compareDoubles(x, y);
    if (isLong(y)) {
      const c = compareLongToDouble(y, x);
      return c === 0 ? 0 : -c;
    }
    if (isDecimal(y)) return compareParts(decimal34OfDouble(x), decodeDecimal(y as Decimal128));
  } else if (isLong(x)) {
    if (typeof y === 'number') return compareLongToDouble(x, y);
    if (isLong(y)) return x.compare(y);
  } else if (isDecimal(x) && typeof y === 'number') {
    return compareParts(decodeDecimal(x as Decimal128), decimal34OfDouble(y));
  }
  return compareParts(exactParts(x), exactParts(y));
}

function isDecimal(v: unknown): boolean {
  return typeof v === 'object' && v !== null && bsonTag(v) === 'Decimal128';
}

/** A double as mongod converts it to compare with a Decimal128 (rounded to 34 digits). */
function decimal34OfDouble(d: number): DecimalParts {
  return roundParts(doubleToExactParts(d), 34);
}

function isLong(v: unknown): v is Long {
  return typeof v === 'object' && v !== null && bsonTag(v) === 'Long';
}

/** Double and Int32 wrappers to their number; other values unchanged. */
function unwrapNumber(v: unknown): unknown {
  if (typeof v === 'object' && v !== null) {
    const tag = bsonTag(v);
    if (tag === 'Double' || tag === 'Int32') return (v as { value: number }).value;
  }
  return v;
}

function compareLongToDouble(l: Long, d: number): number {
  if (d !== d) return 1;
  const approx = l.toNumber();
  if (Number.isSafeInteger(approx)) return compareDoubles(approx, d);
  if (d >= TWO_POW_63) return -1;
  if (d < -TWO_POW_63) return 1;
  const big = l.toBigInt();
  const floor = Math.floor(d);
  const floorBig = BigInt(floor);
  if (big < floorBig) return -1;
  if (big > floorBig) return 1;
  return d === floor ? 0 : -1;
}

/** The exact value of a numeric (number, Long, Decimal128, bigint) as decimal parts. */
export function exactParts(v: unknown): DecimalParts {
  const u = unwrapNumber(v);
  if (typeof u === 'number') return doubleToExactParts(u);
  if (typeof u === 'bigint') return { kind: 'finite', negative: u < 0n, coefficient: u < 0n ? -u : u, exponent: 0 };
  const tag = bsonTag(u);
  if (tag === 'Long') {
    const big = (u as Long).toBigInt();
    return { kind: 'finite', negative: big < 0n, coefficient: big < 0n ? -big : big, exponent: 0 };
  }
  if (tag === 'Decimal128') return decodeDecimal(u as Decimal128);
  return { kind: 'nan' };
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>, collator?: Collator | null): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = ka.length < kb.length ? ka.length : kb.length;
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const ra = typeRank(va);
    const rb = typeRank(vb);
    if (ra !== rb) return ra < rb ? -1 : 1;
    const names = compareStrings(ka[i]!, kb[i]!);
    if (names !== 0) return names;
    const values = compareSameRank(ra, va, vb, collator);
    if (values !== 0) return values;
  }
  return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
}

function compareArrays(a: unknown[], b: unknown[], collator?: Collator | null): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i], collator);
    if (c !== 0) return c;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function binaryBytes(v: Binary): Uint8Array {
  const buf = v.buffer;
  return v.position === buf.length ? buf : buf.subarray(0, v.position);
}

function compareBinary(a: Binary, b: Binary): number {
  const la = a.position;
  const lb = b.position;
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.sub_type !== b.sub_type) return a.sub_type < b.sub_type ? -1 : 1;
  return compareBytes(binaryBytes(a), binaryBytes(b));
}

/** Unsigned byte-wise comparison, then length. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.t !== b.t) return a.t < b.t ? -1 : 1;
  if (a.i !== b.i) return a.i < b.i ? -1 : 1;
  return 0;
}

/** [pattern, flags] of a BSONRegExp or JS RegExp. */
export function regexParts(v: unknown): [string, string] {
  if (v instanceof RegExp) return [v.source, v.flags];
  const r = v as BSONRegExp;
  return [r.pattern, r.options];
}

/** Two ObjectIds in byte order: by bson 7's words when it has them (no buffers built), else by bytes. */
export function compareObjectIds(a: ObjectId, b: ObjectId): number {
  const x = a as unknown as ObjectIdWords;
  const y = b as unknown as ObjectIdWords;
  if (typeof x.i3 === 'number' && typeof y.i3 === 'number') {
    const d = x.i0 - y.i0 || x.i1 - y.i1 || x.i2 - y.i2 || x.i3 - y.i3;
    return d < 0 ? -1 : d > 0 ? 1 : 0;
  }
  return compareBytes(a.id, b.id);
}
