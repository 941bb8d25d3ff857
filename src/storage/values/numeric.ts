/**
 * Every numeric conversion and widening rule, once: the numeric classes of BSON values
 * (Int32 < Int64 < Double < Decimal128, in promotion order), the conversions to a JS double,
 * to an exact integer and to decimal parts, mongod's integer readings of a number
 * (`BSONElement::parseIntegerElementToLong` that refuses what is not exactly an integer,
 * `tryCoerce` that truncates, `safeNumberLong` that truncates and saturates), and arithmetic
 * with mongod's type promotion (SafeNum / `$add`): Int32 op Int32 stays Int32 (Int64 on
 * overflow), Int64 stays Int64 (Double on overflow), any Double makes a Double, any Decimal128
 * a Decimal128 (doubles converted to 15 significant digits, as mongod does).
 * Decimal128's own layout (decode, encode, rounding) is `decimal.ts`.
 */
import { Long, bsonTag, makeDouble, type Decimal128 } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from './bson_type.js';
import { decodeDecimal, doubleToDecimalParts, encodeDecimal, type DecimalParts } from './decimal.js';
import { formatElement } from './format.js';

// ---------------------------------------------------------------------------------------------
// Classes and bounds.

/** The numeric class of a value, in promotion order, or null for a non-number. */
export type NumKind = 'int' | 'long' | 'double' | 'decimal';

const RANK: Record<NumKind, number> = { int: 0, long: 1, double: 2, decimal: 3 };

/** The smallest Int32. */
export const INT32_MIN = -2147483648;
/** The largest Int32. */
export const INT32_MAX = 2147483647;
/** Smallest Int64. */
export const INT64_MIN = -(2n ** 63n);
/** Largest Int64. */
export const INT64_MAX = 2n ** 63n - 1n;
/** 2^63 as a double: a double at or above it (or below its negation) is outside Int64. */
export const TWO_POW_63 = 9223372036854775808;

/** The numeric class of `v`, or null. */
export function numKind(v: unknown): NumKind | null {
  const t = bsonTypeOf(v);
  return t === 'int' || t === 'long' || t === 'double' || t === 'decimal' ? t : null;
}

/** The wider of two numeric classes. */
export function widest(a: NumKind, b: NumKind): NumKind {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True for Int32, Int64, Double and Decimal128 values. */
export function isNumber(v: unknown): boolean {
  if (typeof v === 'number') return true;
  if (v === null || typeof v !== 'object') return typeof v === 'bigint';
  const tag = bsonTag(v);
  return tag === 'Double' || tag === 'Long' || tag === 'Decimal128' || tag === 'Int32';
}

/** True for a double or Decimal128 NaN. */
export function isNaNNumber(v: unknown): boolean {
  if (typeof v === 'number') return v !== v;
  if (typeof v !== 'object' || v === null) return false;
  const tag = bsonTag(v);
  if (tag === 'Double') return Number.isNaN((v as { value: number }).value);
  if (tag === 'Decimal128') return decodeDecimal(v as Decimal128).kind === 'nan';
  return false;
}

// ---------------------------------------------------------------------------------------------
// Conversions.

/** A numeric value as a JS double (Int64 and Decimal128 rounded to nearest); NaN for non-numbers. */
export function toDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v === null || typeof v !== 'object') return NaN;
  switch (bsonTag(v)) {
    case 'Double':
    case 'Int32':
      return (v as { value: number }).value;
    case 'Long':
      return (v as Long).toNumber();
    case 'Decimal128':
      return decimalToDouble(v as Decimal128);
    default:
      return NaN;
  }
}

function decimalToDouble(d: Decimal128): number {
  const s = d.toString();
  if (s === 'NaN' || s === '-NaN') return NaN;
  if (s === 'Infinity') return Infinity;
  if (s === '-Infinity') return -Infinity;
  return Number(s);
}

/** The exact integer value of an Int32 or Int64 (a Double truncated toward zero). */
export function toBigInt(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'bigint') return v;
  if (v instanceof Long) return v.toBigInt();
  return BigInt(Math.trunc((v as { value: number }).value));
}

/** True when `b` fits in an Int64. */
export function fitsLong(b: bigint): boolean {
  return b >= INT64_MIN && b <= INT64_MAX;
}

/** `Value::createIntOrLong`, `BSONObjBuilder::appendNumber`: an Int32 when it fits, else an Int64. */
export function intOrLong(b: bigint): number | Long {
  if (b >= -2147483648n && b <= 2147483647n) return Number(b);
  return Long.fromBigInt(b);
}

/** `BSONObjBuilder::appendNumber(long long)`: an Int32 below 2^30 in magnitude, else an Int64. */
export function appendNumber(b: bigint): number | Long {
  return b > -(2n ** 30n) && b < 2n ** 30n ? Number(b) : Long.fromBigInt(b);
}

/** A Long value. */
export function longOf(b: bigint): Long {
  return Long.fromBigInt(b);
}

/** A Double value in Mayfly's representation. */
export function doubleOf(n: number): unknown {
  return makeDouble(n);
}

/** Exact decimal parts of a numeric value as mongod converts it to Decimal128 (doubles: 15 digits). */
export function toDecimalParts(v: unknown): DecimalParts {
  switch (bsonTypeOf(v)) {
    case 'decimal':
      return decodeDecimal(v as Decimal128);
    case 'double':
      return doubleToDecimalParts(toDouble(v));
    default: {
      const b = toBigInt(v);
      return { kind: 'finite', negative: b < 0n, coefficient: b < 0n ? -b : b, exponent: 0 };
    }
  }
}

/** How a fractional number becomes an integer. */
export type Rounding = 'exact' | 'truncate' | 'halfEven';

/**
 * The integer a numeric value holds, read under `rounding`: 'exact' gives undefined for a value
 * with a fraction, 'truncate' drops the fraction, 'halfEven' rounds half to even. NaN and the
 * infinities give null; anything not a number, undefined. Int32 and Int64 are exact.
 */
export function integerOf(v: unknown, rounding: Rounding): bigint | null | undefined {
  switch (bsonTypeOf(v)) {
    case 'int':
    case 'long':
      return toBigInt(v);
    case 'double': {
      const d = toDouble(v);
      if (!Number.isFinite(d)) return null;
      if (Number.isInteger(d)) return BigInt(d);
      if (rounding === 'exact') return undefined;
      if (rounding === 'truncate') return BigInt(Math.trunc(d));
      const floor = Math.floor(d);
      const diff = d - floor;
      return BigInt(diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor);
    }
    case 'decimal': {
      const p = decodeDecimal(v as Decimal128);
      if (p.kind !== 'finite') return null;
      let c: bigint;
      if (p.exponent >= 0) c = p.coefficient * 10n ** BigInt(p.exponent);
      else {
        const divisor = 10n ** BigInt(-p.exponent);
        c = p.coefficient / divisor;
        const rest = p.coefficient % divisor;
        if (rest !== 0n) {
          if (rounding === 'exact') return undefined;
          if (rounding === 'halfEven') {
            const twice = rest * 2n;
            if (twice > divisor || (twice === divisor && c % 2n === 1n)) c += 1n;
          }
        }
      }
      return p.negative ? -c : c;
    }
    default:
      return undefined;
  }
}

/**
 * `BSONElement::safeNumberLong`: a number as an Int64, doubles truncated toward zero and
 * Decimal128s rounded half to even, saturated at the Int64 limits; NaN is 0. Undefined for a
 * value that is not a number.
 */
export function safeNumberLong(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  const kind = numKind(v);
  if (kind === null) return undefined;
  if (kind === 'double') {
    const d = toDouble(v);
    if (Number.isNaN(d)) return 0n;
    if (d >= TWO_POW_63) return INT64_MAX;
    if (d < -TWO_POW_63) return INT64_MIN;
    return BigInt(Math.trunc(d));
  }
  const n = integerOf(v, 'halfEven');
  if (n === undefined) return undefined;
  if (n === null) {
    const p = decodeDecimal(v as Decimal128);
    return p.kind === 'nan' ? 0n : p.negative ? INT64_MIN : INT64_MAX;
  }
  return n > INT64_MAX ? INT64_MAX : n < INT64_MIN ? INT64_MIN : n;
}

/** `BSONElement::safeNumberInt`: `safeNumberLong` clamped to the Int32 range. */
export function safeNumberInt(v: unknown): number | undefined {
  const n = safeNumberLong(v);
  if (n === undefined) return undefined;
  return Number(n > 2147483647n ? 2147483647n : n < -2147483648n ? -2147483648n : n);
}

/**
 * `BSONElement::tryCoerce` to an Int64 (`$mod`'s arguments): the fraction dropped; NaN, the
 * infinities and values outside Int64 fail with mongod's reasons.
 */
export function coerceToLong(v: unknown): { ok: true; value: bigint } | { ok: false; reason: string } {
  const n = integerOf(v, 'truncate');
  if (n === null || n === undefined) return { ok: false, reason: 'Unable to coerce NaN/Inf to integral type' };
  if (!fitsLong(n)) return { ok: false, reason: 'Out of bounds coercing to integral value' };
  return { ok: true, value: n };
}

/**
 * The value of a numeric BSON value when it is exactly an integer within the Int32 range
 * (any numeric type: Int32, Int64, integral Double or Decimal128); undefined otherwise.
 */
export function exactInt32(v: unknown): number | undefined {
  const n = integerOf(v, 'exact');
  if (n === null || n === undefined || n < -2147483648n || n > 2147483647n) return undefined;
  return Number(n);
}

/** The value of a numeric BSON value when it is exactly an integer within Int64; undefined otherwise. */
export function exactInt64(v: unknown): bigint | undefined {
  const n = integerOf(v, 'exact');
  return n === null || n === undefined || !fitsLong(n) ? undefined : n;
}

// ---------------------------------------------------------------------------------------------
// mongod's integer arguments (BSONElement::parseIntegerElementToLong and friends), with its
// messages: "Expected a number in: $size: \"x\"", "Expected an integer: $size: 2.5", ... The
// label is the element as mongod prints it (`name: value`).

/** The outcome of an integer parse: the value, or mongod's failure reason (FailedToParse). */
export type IntegerParse = { ok: true; value: bigint } | { ok: false; reason: string };

/** parseIntegerElementToLong. */
export function parseIntegerToLong(name: string, v: unknown): IntegerParse {
  if (!isNumber(v)) return { ok: false, reason: `Expected a number in: ${formatElement(name, v)}` };
  if (bsonTypeOf(v) === 'double') {
    const d = toDouble(v);
    if (Number.isNaN(d)) return { ok: false, reason: `Expected an integer, but found NaN in: ${formatElement(name, v)}` };
    if (d >= TWO_POW_63 || d < -TWO_POW_63) {
      return { ok: false, reason: `Cannot represent as a 64-bit integer: ${formatElement(name, v)}` };
    }
    if (!Number.isInteger(d)) return { ok: false, reason: `Expected an integer: ${formatElement(name, v)}` };
    return { ok: true, value: BigInt(d) };
  }
  const n = exactInt64(v);
  if (n === undefined) return { ok: false, reason: `Cannot represent as a 64-bit integer: ${formatElement(name, v)}` };
  return { ok: true, value: n };
}

/** parseIntegerElementToNonNegativeLong. */
export function parseIntegerToNonNegativeLong(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToLong(name, v);
  if (r.ok && r.value < 0n) {
    return { ok: false, reason: `Expected a non-negative number in: ${formatElement(name, v)}` };
  }
  return r;
}

/** parseIntegerElementToInt. */
export function parseIntegerToInt(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToLong(name, v);
  if (r.ok && (r.value < -2147483648n || r.value > 2147483647n)) {
    return { ok: false, reason: `Cannot represent as a 32-bit integer: ${formatElement(name, v)}` };
  }
  return r;
}

/** parseIntegerElementToNonNegativeInt. */
export function parseIntegerToNonNegativeInt(name: string, v: unknown): IntegerParse {
  const r = parseIntegerToInt(name, v);
  if (r.ok && r.value < 0n) {
    return { ok: false, reason: `Expected a non-negative number in: ${formatElement(name, v)}` };
  }
  return r;
}

/** Throws the parse failure as mongod's FailedToParse (9). */
export function unwrapOrFailedToParse(r: IntegerParse): bigint {
  if (!r.ok) throw new CommandError('FailedToParse', r.reason);
  return r.value;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic with BSON type promotion.

function kindForArithmetic(v: unknown): NumKind {
  const k = numKind(v);
  if (k === null) throw new CommandError('TypeMismatch', `Cannot apply arithmetic to a value of non-numeric type ${bsonTypeOf(v)}`);
  return k;
}

function longOrDouble(result: bigint, fallback: () => number): unknown {
  if (fitsLong(result)) return Long.fromBigInt(result);
  return makeDouble(fallback());
}

/** a + b with BSON type promotion. */
export function addNumbers(a: unknown, b: unknown): unknown {
  switch (widest(kindForArithmetic(a), kindForArithmetic(b))) {
    case 'int': {
      const r = (a as number) + (b as number);
      if (r >= -2147483648 && r <= 2147483647) return r;
      return Long.fromNumber(r);
    }
    case 'long':
      return longOrDouble(toBigInt(a) + toBigInt(b), () => toDouble(a) + toDouble(b));
    case 'double':
      return makeDouble(toDouble(a) + toDouble(b));
    default:
      return encodeDecimal(addParts(toDecimalParts(a), toDecimalParts(b)));
  }
}

/** a * b with BSON type promotion. */
export function multiplyNumbers(a: unknown, b: unknown): unknown {
  switch (widest(kindForArithmetic(a), kindForArithmetic(b))) {
    case 'int': {
      const r = (a as number) * (b as number);
      if (r >= -2147483648 && r <= 2147483647) return r === 0 ? 0 : r;
      return Long.fromBigInt(BigInt(a as number) * BigInt(b as number));
    }
    case 'long':
      return longOrDouble(toBigInt(a) * toBigInt(b), () => toDouble(a) * toDouble(b));
    case 'double':
      return makeDouble(toDouble(a) * toDouble(b));
    default:
      return encodeDecimal(multiplyParts(toDecimalParts(a), toDecimalParts(b)));
  }
}

// ---------------------------------------------------------------------------------------------
// Decimal arithmetic (exact on parts; `encodeDecimal` rounds to 34 digits).

/** Exact sum of two decimal values (rounded later by `encodeDecimal`). */
export function addParts(a: DecimalParts, b: DecimalParts): DecimalParts {
  if (a.kind === 'nan' || b.kind === 'nan') return { kind: 'nan' };
  if (a.kind === 'inf' || b.kind === 'inf') {
    if (a.kind === 'inf' && b.kind === 'inf' && a.negative !== b.negative) return { kind: 'nan' };
    return a.kind === 'inf' ? a : b;
  }
  const exponent = Math.min(a.exponent, b.exponent);
  const ca = (a.negative ? -a.coefficient : a.coefficient) * 10n ** BigInt(a.exponent - exponent);
  const cb = (b.negative ? -b.coefficient : b.coefficient) * 10n ** BigInt(b.exponent - exponent);
  const sum = ca + cb;
  // IEEE 754: an exact zero sum is +0 unless both operands are -0.
  const negative = sum < 0n || (sum === 0n && a.negative && b.negative);
  return { kind: 'finite', negative, coefficient: sum < 0n ? -sum : sum, exponent };
}

/** Exact product of two decimal values. */
export function multiplyParts(a: DecimalParts, b: DecimalParts): DecimalParts {
  if (a.kind === 'nan' || b.kind === 'nan') return { kind: 'nan' };
  const negative = a.negative !== b.negative;
  if (a.kind === 'inf' || b.kind === 'inf') {
    const other = a.kind === 'inf' ? b : a;
    if (other.kind === 'finite' && other.coefficient === 0n) return { kind: 'nan' };
    return { kind: 'inf', negative };
  }
  return { kind: 'finite', negative, coefficient: a.coefficient * b.coefficient, exponent: a.exponent + b.exponent };
}

/** Negated decimal parts. */
export function negateParts(p: DecimalParts): DecimalParts {
  if (p.kind === 'nan') return p;
  return { ...p, negative: !p.negative } as DecimalParts;
}

/** True for a decimal zero. */
export function isZeroParts(p: DecimalParts): boolean {
  return p.kind === 'finite' && p.coefficient === 0n;
}

/** a - b as Decimal128. */
export function subtractDecimal(a: unknown, b: unknown): Decimal128 {
  return encodeDecimal(addParts(toDecimalParts(a), negateParts(toDecimalParts(b))));
}

function digitCount(b: bigint): number {
  return b === 0n ? 1 : b.toString().length;
}

/** a / b as Decimal128 (IEEE 754 preferred exponent when exact; round-half-even to 34 digits). */
export function divideDecimal(a: unknown, b: unknown): Decimal128 {
  const pa = toDecimalParts(a);
  const pb = toDecimalParts(b);
  if (pa.kind === 'nan' || pb.kind === 'nan') return encodeDecimal({ kind: 'nan' });
  const negative = pa.negative !== pb.negative;
  if (pa.kind === 'inf') {
    return encodeDecimal(pb.kind === 'inf' ? { kind: 'nan' } : { kind: 'inf', negative });
  }
  if (pb.kind === 'inf') return encodeDecimal({ kind: 'finite', negative, coefficient: 0n, exponent: 0 });
  if (pb.coefficient === 0n) {
    if (pa.coefficient === 0n) return encodeDecimal({ kind: 'nan' });
    return encodeDecimal({ kind: 'inf', negative });
  }
  const ideal = pa.exponent - pb.exponent;
  if (pa.coefficient === 0n) return encodeDecimal({ kind: 'finite', negative, coefficient: 0n, exponent: ideal });
  const k = Math.max(0, 36 + digitCount(pb.coefficient) - digitCount(pa.coefficient));
  const scaled = pa.coefficient * 10n ** BigInt(k);
  let q = scaled / pb.coefficient;
  const r = scaled % pb.coefficient;
  let exponent = ideal - k;
  if (r === 0n) {
    while (exponent < ideal && q % 10n === 0n) {
      q /= 10n;
      exponent += 1;
    }
  } else {
    // Sticky digit so that the final rounding to 34 digits is correct.
    q = q * 10n + 1n;
    exponent -= 1;
  }
  return encodeDecimal({ kind: 'finite', negative, coefficient: q, exponent });
}

/** a % b as Decimal128 (sign of the dividend); null when b is zero. */
export function modDecimal(a: unknown, b: unknown): Decimal128 | null {
  const pa = toDecimalParts(a);
  const pb = toDecimalParts(b);
  if (pb.kind === 'finite' && pb.coefficient === 0n) return null;
  if (pa.kind !== 'finite' || pb.kind === 'nan') return encodeDecimal({ kind: 'nan' });
  if (pb.kind === 'inf') return encodeDecimal(pa);
  const e = Math.min(pa.exponent, pb.exponent);
  const ca = pa.coefficient * 10n ** BigInt(pa.exponent - e);
  const cb = pb.coefficient * 10n ** BigInt(pb.exponent - e);
  const r = ca % cb;
  return encodeDecimal({ kind: 'finite', negative: pa.negative, coefficient: r, exponent: e });
}
