/**
 * `$arrayElemAt` (ExpressionArrayElemAt): the element at an index (negative from the end);
 * missing when out of range; the index must be an integral number that fits an Int32.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { formatG } from '../../../values/format.js';
import { numKind, toDouble } from '../../../values/numeric.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `$arrayElemAt` of evaluated operands (MISSING when out of range). */
export function arrayElemAt(array: unknown, index: unknown): unknown {
  if (isNullish(array) || isNullish(index)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(28689, `$arrayElemAt's first argument must be an array, but is ${typeName(array)}`);
  }
  if (numKind(index) === null) {
    throw new CommandError(28690, `$arrayElemAt's second argument must be a numeric value, but is ${typeName(index)}`);
  }
  const d = toDouble(index);
  if (!Number.isInteger(d) || d < -2147483648 || d > 2147483647) {
    throw new CommandError(28691, `$arrayElemAt's second argument must be representable as a 32-bit integer: ${formatG(d, 6)}`);
  }
  const i = d < 0 ? array.length + d : d;
  if (i < 0 || i >= array.length) return MISSING;
  return array[i];
}

/** `{$arrayElemAt: [<array>, <index>]}`. */
export const arrayElemAtOperator: ExpressionOperator = {
  name: '$arrayElemAt',
  parse(arg, scope) {
    const [a, i] = scope.parseFixedArguments('$arrayElemAt', arg, 2) as [Evaluator, Evaluator];
    return (frame) => arrayElemAt(a(frame), i(frame));
  },
};
