/**
 * `$subtract` (ExpressionSubtract): numbers with BSON type promotion (Int32 widens to Int64 on
 * overflow, Int64 to Double); a Date minus a number is a Date (milliseconds, a fraction rounded
 * half away from zero, NaN or an infinity 15 Overflow); a Date minus a Date is an Int64 of
 * milliseconds; null or missing makes null.
 */
import { Long } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { doubleOf, fitsLong, intOrLong, longOf, numKind, subtractDecimal, toBigInt, toDouble, TWO_POW_63, widest } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `$subtract` of two evaluated operands. */
export function subtractValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    switch (widest(kl, kr)) {
      case 'decimal':
        return subtractDecimal(lhs, rhs);
      case 'double':
        return doubleOf(toDouble(lhs) - toDouble(rhs));
      case 'long': {
        const r = toBigInt(lhs) - toBigInt(rhs);
        return fitsLong(r) ? longOf(r) : doubleOf(toDouble(lhs) - toDouble(rhs));
      }
      default:
        return intOrLong(toBigInt(lhs) - toBigInt(rhs));
    }
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  if (lhs instanceof Date) {
    if (rhs instanceof Date) return Long.fromNumber(lhs.getTime() - rhs.getTime());
    if (kr !== null) {
      // A fractional offset is rounded half away from zero; NaN and the infinities overflow.
      let offset: bigint;
      if (kr === 'double' || kr === 'decimal') {
        const d = toDouble(rhs);
        const r = d < 0 ? -Math.round(-d) : Math.round(d);
        if (!(r >= -TWO_POW_63 && r < TWO_POW_63)) throw new CommandError('Overflow', 'date overflow in $subtract');
        offset = BigInt(r);
      } else {
        offset = toBigInt(rhs);
      }
      const millis = BigInt(lhs.getTime()) - offset;
      if (!fitsLong(millis)) throw new CommandError('Overflow', 'date overflow in $subtract');
      return new Date(Number(millis));
    }
    throw new CommandError('TypeMismatch', `can't $subtract ${typeName(rhs)} from Date`);
  }
  throw new CommandError('TypeMismatch', `can't $subtract ${typeName(rhs)} from ${typeName(lhs)}`);
}

/** `{$subtract: [<expression>, <expression>]}`. */
export const subtract: ExpressionOperator = {
  name: '$subtract',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$subtract', arg, 2) as [Evaluator, Evaluator];
    return (frame) => subtractValues(a(frame), b(frame));
  },
};
