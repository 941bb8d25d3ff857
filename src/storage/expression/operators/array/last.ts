/** `$last` as an array expression (ExpressionLast): `$arrayElemAt` at -1; missing for []. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { elementAt } from './_internal.js';

/** `{$last: <array>}`. */
export const last: ExpressionOperator = {
  name: '$last',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$last', arg, 1) as [Evaluator];
    return (frame) => elementAt('$last', true, a(frame), -1);
  },
};
