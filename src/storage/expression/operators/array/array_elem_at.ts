/**
 * `$arrayElemAt` (ExpressionArrayElemAt): the element at an index (negative from the end);
 * missing when out of range; the index must be an integral number that fits an Int32.
 */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { elementAt } from './_internal.js';

/** `{$arrayElemAt: [<array>, <index>]}`. */
export const arrayElemAtOperator: ExpressionOperator = {
  name: '$arrayElemAt',
  parse(arg, scope) {
    const [a, i] = scope.parseFixedArguments('$arrayElemAt', arg, 2) as [Evaluator, Evaluator];
    return (frame) => elementAt('$arrayElemAt', false, a(frame), i(frame));
  },
};
