/**
 * `$divide` (ExpressionDivide): a Double quotient (a Decimal128 when either operand is one);
 * division by zero is 2 BadValue (4848401 in SBE: `EngineDependentError`); null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { EngineDependentError } from '../../engine_error.js';
import { divideDecimal, doubleOf, isZeroParts, numKind, toDecimalParts, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** The error of a zero divisor: 2 BadValue, 4848401 in SBE. */
const divideByZero = (): Error => new EngineDependentError('BadValue', 4848401, "can't $divide by zero");

/** `$divide` of two evaluated operands. */
export function divideValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    if (kl === 'decimal' || kr === 'decimal') {
      if (isZeroParts(toDecimalParts(rhs))) throw divideByZero();
      return divideDecimal(lhs, rhs);
    }
    const denom = toDouble(rhs);
    if (denom === 0) throw divideByZero();
    return doubleOf(toDouble(lhs) / denom);
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  throw new CommandError('TypeMismatch', `$divide only supports numeric types, not ${typeName(lhs)} and ${typeName(rhs)}`);
}

/** `{$divide: [<dividend>, <divisor>]}`. */
export const divide: ExpressionOperator = {
  name: '$divide',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$divide', arg, 2) as [Evaluator, Evaluator];
    return (frame) => divideValues(a(frame), b(frame));
  },
};
