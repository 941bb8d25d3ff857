/** `$first` as an array expression (ExpressionFirst): `$arrayElemAt` at 0; missing for []. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { elementAt } from './_internal.js';

/** `{$first: <array>}`. */
export const first: ExpressionOperator = {
  name: '$first',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$first', arg, 1) as [Evaluator];
    return (frame) => elementAt('$first', true, a(frame), 0);
  },
};
