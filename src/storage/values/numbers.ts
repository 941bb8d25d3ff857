/**
 * BSON arithmetic with mongod's type promotion (SafeNum / $add): Int32 op Int32 stays Int32
 * (Int64 on overflow), Int64 stays Int64 (Double on overflow), any Double makes a Double, any
 * Decimal128 makes a Decimal128 (doubles converted to 15 significant digits, as mongod does).
 */
import { Long, makeDouble, type Decimal128 } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf, toDouble } from './bson_type.js';
import { decodeDecimal, doubleToDecimalParts, encodeDecimal, type DecimalParts } from './decimal.js';

/** Numeric class of a value, in promotion order. */
const Kind = { Int: 0, Long: 1, Double: 2, Decimal: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function kindOf(v: unknown): Kind {
  switch (bsonTypeOf(v)) {
    case 'int':
      return Kind.Int;
    case 'long':
      return Kind.Long;
    case 'double':
      return Kind.Double;
    case 'decimal':
      return Kind.Decimal;
    default:
      throw new CommandError('TypeMismatch', `Cannot apply arithmetic to a value of non-numeric type ${bsonTypeOf(v)}`);
  }
}

function toBigInt(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'bigint') return v;
  if (v instanceof Long) return v.toBigInt();
  return BigInt((v as { value: number }).value);
}

/** Exact decimal parts of a numeric value as mongod converts it to Decimal128. */
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

function longOrDouble(result: bigint, fallback: () => number): unknown {
  if (result >= INT64_MIN && result <= INT64_MAX) return Long.fromBigInt(result);
  return makeDouble(fallback());
}

/** a + b with BSON type promotion. */
export function addNumbers(a: unknown, b: unknown): unknown {
  const ka = kindOf(a);
  const kb = kindOf(b);
  const k = ka > kb ? ka : kb;
  switch (k) {
    case Kind.Int: {
      const r = (a as number) + (b as number);
      if (r >= -2147483648 && r <= 2147483647) return r;
      return Long.fromNumber(r);
    }
    case Kind.Long:
      return longOrDouble(toBigInt(a) + toBigInt(b), () => toDouble(a) + toDouble(b));
    case Kind.Double:
      return makeDouble(toDouble(a) + toDouble(b));
    default:
      return encodeDecimal(addParts(toDecimalParts(a), toDecimalParts(b)));
  }
}

/** a * b with BSON type promotion. */
export function multiplyNumbers(a: unknown, b: unknown): unknown {
  const ka = kindOf(a);
  const kb = kindOf(b);
  const k = ka > kb ? ka : kb;
  switch (k) {
    case Kind.Int: {
      const r = (a as number) * (b as number);
      if (r >= -2147483648 && r <= 2147483647) return r === 0 ? 0 : r;
      return Long.fromBigInt(BigInt(a as number) * BigInt(b as number));
    }
    case Kind.Long:
      return longOrDouble(toBigInt(a) * toBigInt(b), () => toDouble(a) * toDouble(b));
    case Kind.Double:
      return makeDouble(toDouble(a) * toDouble(b));
    default:
      return encodeDecimal(multiplyParts(toDecimalParts(a), toDecimalParts(b)));
  }
}

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
