/** `$not` (ExpressionNot): the negated truthiness of its one argument. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { toBool } from '../../value.js';

/** `{$not: <expression>}` or `{$not: [<expression>]}`. */
export const not: ExpressionOperator = {
  name: '$not',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$not', arg, 1) as [Evaluator];
    return (frame) => !toBool(a(frame));
  },
};
