/**
 * Numeric helpers shared by aggregation expressions, accumulators and update operators:
 * BSON numeric classes, Int32/Int64 results (`Value::createIntOrLong`), and the Decimal128
 * operations the value layer does not provide (subtract, divide, modulo, negate).
 */
import { Long, makeDouble, type Decimal128 } from '../../bson.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { encodeDecimal, type DecimalParts } from '../values/decimal.js';
import { addParts, toDecimalParts } from '../values/numbers.js';

/** The numeric class of a value, in promotion order, or null for a non-number. */
export type NumKind = 'int' | 'long' | 'double' | 'decimal';

const RANK: Record<NumKind, number> = { int: 0, long: 1, double: 2, decimal: 3 };

/** The numeric class of `v`, or null. */
export function numKind(v: unknown): NumKind | null {
  const t = bsonTypeOf(v);
  return t === 'int' || t === 'long' || t === 'double' || t === 'decimal' ? t : null;
}

/** The wider of two numeric classes. */
export function widest(a: NumKind, b: NumKind): NumKind {
  return RANK[a] >= RANK[b] ? a : b;
}

const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;
/** Smallest Int64. */
export const INT64_MIN = -(2n ** 63n);
/** Largest Int64. */
export const INT64_MAX = 2n ** 63n - 1n;

/** The exact integer value of an Int32 or Int64. */
export function toBigInt(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint') return v;
  if (v instanceof Long) return v.toBigInt();
  return BigInt(Math.trunc((v as { value: number }).value));
}

/** True when `b` fits in an Int64. */
export function fitsLong(b: bigint): boolean {
  return b >= INT64_MIN && b <= INT64_MAX;
}

/** `Value::createIntOrLong`: an Int32 when it fits, else an Int64. */
export function intOrLong(b: bigint): unknown {
  if (b >= INT32_MIN && b <= INT32_MAX) return Number(b);
  return Long.fromBigInt(b);
}

/** A Long value. */
export function longOf(b: bigint): Long {
  return Long.fromBigInt(b);
}

/** A Double value in Mayfly's representation. */
export function doubleOf(n: number): unknown {
  return makeDouble(n);
}

/** Exact decimal parts of any numeric value (doubles as mongod converts them: 15 digits). */
export function decimalPartsOf(v: unknown): DecimalParts {
  return toDecimalParts(v);
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
  return encodeDecimal(addParts(decimalPartsOf(a), negateParts(decimalPartsOf(b))));
}

function digitCount(b: bigint): number {
  return b === 0n ? 1 : b.toString().length;
}

/** a / b as Decimal128 (IEEE 754 preferred exponent when exact; round-half-even to 34 digits). */
export function divideDecimal(a: unknown, b: unknown): Decimal128 {
  const pa = decimalPartsOf(a);
  const pb = decimalPartsOf(b);
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
  const pa = decimalPartsOf(a);
  const pb = decimalPartsOf(b);
  if (pb.kind === 'finite' && pb.coefficient === 0n) return null;
  if (pa.kind !== 'finite' || pb.kind === 'nan') return encodeDecimal({ kind: 'nan' });
  if (pb.kind === 'inf') return encodeDecimal(pa);
  const e = Math.min(pa.exponent, pb.exponent);
  const ca = pa.coefficient * 10n ** BigInt(pa.exponent - e);
  const cb = pb.coefficient * 10n ** BigInt(pb.exponent - e);
  const r = ca % cb;
  return encodeDecimal({ kind: 'finite', negative: pa.negative, coefficient: r, exponent: e });
}
