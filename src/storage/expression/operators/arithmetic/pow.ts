/**
 * `$pow` (ExpressionPow): a number raised to an exponent. Any Decimal128 makes a Decimal128,
 * any Double a Double; two integers stay integers (Int32 when both are Int32 and the result
 * fits, else Int64) while the result fits an Int64, a Double beyond. Non-numbers are 28762 /
 * 28763, zero to a negative power 28764; null or missing makes null.
 */
import { Long, type Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { encodeDecimal } from '../../../values/decimal.js';
import { decimalPow } from '../../../values/decimal_math.js';
import { doubleOf, fitsLong, intOrLong, numKind, toBigInt, toDecimalParts, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

function zeroToNegative(): never {
  throw new CommandError(28764, '$pow cannot take a base of 0 and a negative exponent');
}

/** C's `pow`, which differs from `Math.pow` where the base is 1 or -1 and the exponent NaN or infinite. */
function cPow(base: number, exponent: number): number {
  if (base === 1 || exponent === 0) return 1;
  if (base === -1 && !Number.isFinite(exponent) && !Number.isNaN(exponent)) return 1;
  return Math.pow(base, exponent);
}

/** `$pow` of two evaluated operands. */
function powValue(base: unknown, exponent: unknown): unknown {
  if (isNullish(base) || isNullish(exponent)) return null;
  const kb = numKind(base);
  const ke = numKind(exponent);
  if (kb === null) throw new CommandError(28762, `$pow's base must be numeric, not ${typeName(base)}`);
  if (ke === null) throw new CommandError(28763, `$pow's exponent must be numeric, not ${typeName(exponent)}`);
  if (kb === 'decimal' || ke === 'decimal') {
    const pb = toDecimalParts(base);
    const pe = toDecimalParts(exponent);
    if (pb.kind === 'finite' && pb.coefficient === 0n && pe.kind !== 'nan' && pe.negative) zeroToNegative();
    return decimalPow(encodeDecimal(pb), encodeDecimal(pe) as Decimal128);
  }
  const db = toDouble(base);
  const de = toDouble(exponent);
  if (db === 0 && de < 0) zeroToNegative();
  if (kb === 'double' || ke === 'double') return doubleOf(cPow(db, de));
  const anyLong = kb === 'long' || ke === 'long';
  const b = toBigInt(base);
  const e = toBigInt(exponent);
  if (b === 0n || b === 1n || b === -1n || (e >= 0n && e <= 63n)) {
    const r = e < 0n ? (b === -1n && e % 2n !== 0n ? -1n : 1n) : b ** e;
    if (fitsLong(r)) return anyLong ? Long.fromBigInt(r) : intOrLong(r);
  }
  return doubleOf(cPow(db, de));
}

/** `{$pow: [<base>, <exponent>]}`. */
export const pow: ExpressionOperator = {
  name: '$pow',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$pow', arg, 2) as [Evaluator, Evaluator];
    return (frame) => powValue(a(frame), b(frame));
  },
};
