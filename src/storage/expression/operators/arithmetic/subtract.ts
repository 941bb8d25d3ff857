/**
 * `$subtract` (ExpressionSubtract): numbers with BSON type promotion (Int32 widens to Int64 on
 * overflow, Int64 to Double), a Date minus a number (milliseconds, truncated) is a Date, a Date
 * minus a Date an Int64 of milliseconds; null or missing makes null.
 */
import { Long } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { doubleOf, fitsLong, intOrLong, longOf, numKind, subtractDecimal, toBigInt, toDouble, widest } from '../../../values/numeric.js';
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
    if (kr !== null) return new Date(lhs.getTime() - Math.trunc(toDouble(rhs)));
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
