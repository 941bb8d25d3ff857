/**
 * Numeric conversions of TTL values, as mongod's `BSONElement::safeNumberLong/safeNumberInt`
 * do them (saturating, NaN → 0, doubles truncated toward zero, Decimal128 rounded half to even),
 * and the exact "is this an integer" test the Cosmos rules need.
 */
import { Decimal128, Double, Int32, Long } from '../bson.js';
import { decodeDecimal } from '../storage/values/decimal.js';

/** The smallest Int32. */
export const INT32_MIN = -2147483648;
/** The largest Int32 (also the largest TTL in seconds everywhere). */
export const INT32_MAX = 2147483647;
const INT64_LIMIT = 9223372036854775807;

function saturateLong(n: number): number {
  if (Number.isNaN(n)) return 0;
  if (n >= INT64_LIMIT) return INT64_LIMIT;
  if (n <= -INT64_LIMIT) return -INT64_LIMIT;
  return Math.trunc(n) + 0;
}

/** A Decimal128 rounded half to even to an integer (as a JS number, saturated); NaN → 0. */
function decimalToLong(d: Decimal128): number {
  const parts = decodeDecimal(d);
  if (parts.kind === 'nan') return 0;
  if (parts.kind === 'inf') return parts.negative ? -INT64_LIMIT : INT64_LIMIT;
  let value: bigint;
  if (parts.exponent >= 0) {
    if (parts.coefficient !== 0n && parts.exponent > 40) value = 10n ** 40n;
    else value = parts.coefficient * 10n ** BigInt(parts.exponent);
  } else {
    const divisor = 10n ** BigInt(-parts.exponent);
    let q = parts.coefficient / divisor;
    const twice = (parts.coefficient % divisor) * 2n;
    if (twice > divisor || (twice === divisor && q % 2n === 1n)) q += 1n;
    value = q;
  }
  const n = Number(parts.negative ? -value : value);
  return saturateLong(n);
}

/** mongod's `safeNumberLong` of a numeric BSON value; NaN for a non-number. */
export function safeNumberLong(v: unknown): number {
  if (typeof v === 'number') return saturateLong(v);
  if (v instanceof Double || v instanceof Int32) return saturateLong(v.value);
  if (v instanceof Long) return v.toNumber();
  if (v instanceof Decimal128) return decimalToLong(v);
  return NaN;
}

/** mongod's `safeNumberInt`: `safeNumberLong` clamped to the Int32 range. */
export function safeNumberInt(v: unknown): number {
  const n = safeNumberLong(v);
  return Number.isNaN(n) ? n : Math.min(INT32_MAX, Math.max(INT32_MIN, n));
}

/** True for a double or Decimal128 NaN. */
export function isNaNNumber(v: unknown): boolean {
  if (typeof v === 'number') return Number.isNaN(v);
  if (v instanceof Double) return Number.isNaN(v.value);
  if (v instanceof Decimal128) return decodeDecimal(v).kind === 'nan';
  return false;
}

/**
 * The value of a numeric BSON value when it is exactly an integer within the Int32 range
 * (any numeric type: Int32, Int64, integral Double or Decimal128); undefined otherwise.
 */
export function exactInt32(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (v instanceof Double || v instanceof Int32) n = v.value;
  else if (v instanceof Long) {
    if (v.greaterThan(INT32_MAX) || v.lessThan(INT32_MIN)) return undefined;
    n = v.toNumber();
  } else if (v instanceof Decimal128) {
    const parts = decodeDecimal(v);
    if (parts.kind !== 'finite') return undefined;
    let value = parts.coefficient;
    if (parts.exponent < 0) {
      const divisor = 10n ** BigInt(-parts.exponent);
      if (value % divisor !== 0n) return undefined;
      value /= divisor;
    } else if (value !== 0n) {
      if (parts.exponent > 10) return undefined;
      value *= 10n ** BigInt(parts.exponent);
    }
    if (value > BigInt(INT32_MAX) + 1n) return undefined;
    n = Number(parts.negative ? -value : value);
  } else return undefined;
  if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) return undefined;
  return n + 0;
}
