/**
 * mongod's `Value` integer readings the string operators use (value.cpp): `integral()` (exactly
 * an Int32), `coerceToLong()` and `coerceToInt()` (doubles truncated and range-checked, 31109
 * and 31108; Decimal128 rounded half to even, saturating to the type's minimum when it does not
 * fit, as the decimal library's conversions do).
 */
import type { Decimal128 } from '../../../../../bson/library.js';
import { CommandError } from '../../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import { decodeDecimal } from '../../../../values/decimal.js';
import { formatG } from '../../../../values/format.js';
import { INT64_MAX, INT64_MIN, TWO_POW_63, exactInt32, integerOf, toBigInt, toDouble } from '../../../../values/numeric.js';

/** `Value::numeric()`: Int32, Int64, Double or Decimal128. */
export function isNumeric(v: unknown): boolean {
  const t = bsonTypeOf(v);
  return t === 'int' || t === 'long' || t === 'double' || t === 'decimal';
}

/** `Value::integral()`: a number exactly representable as an Int32. */
export function isIntegral(v: unknown): boolean {
  return exactInt32(v) !== undefined;
}

function decimalRounded(v: unknown): bigint | null {
  const d = decodeDecimal(v as Decimal128);
  if (d.kind !== 'finite') return null;
  return integerOf(v, 'halfEven') as bigint;
}

/** `Value::coerceToLong()` of a numeric value. */
export function coerceToLong(v: unknown): bigint {
  switch (bsonTypeOf(v)) {
    case 'double': {
      const d = toDouble(v);
      if (!(d >= -TWO_POW_63 && d < TWO_POW_63)) {
        throw new CommandError(31109, `Can't coerce out of range value ${formatG(d, 6)} to long`);
      }
      return BigInt(Math.trunc(d));
    }
    case 'decimal': {
      const n = decimalRounded(v);
      return n === null || n < INT64_MIN || n > INT64_MAX ? INT64_MIN : n;
    }
    default:
      return toBigInt(v);
  }
}

/** `Value::coerceToInt()` of a numeric value. */
export function coerceToInt(v: unknown): number {
  switch (bsonTypeOf(v)) {
    case 'double': {
      const d = toDouble(v);
      if (!(d > -2147483649 && d < 2147483648)) {
        throw new CommandError(31108, `Can't coerce out of range value ${formatG(d, 6)} to int`);
      }
      return Math.trunc(d);
    }
    case 'decimal': {
      const n = decimalRounded(v);
      return n === null || n < -2147483648n || n > 2147483647n ? -2147483648 : Number(n);
    }
    case 'long':
      return Number(BigInt.asIntN(32, toBigInt(v)));
    default:
      return toDouble(v);
  }
}
