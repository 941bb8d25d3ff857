/** `$isArray` (ExpressionIsArray): whether the argument is an array (false for null and missing). */
import type { Evaluator, ExpressionOperator } from '../../types.js';

/** `{$isArray: <expression>}` or `{$isArray: [<expression>]}`. */
export const isArray: ExpressionOperator = {
  name: '$isArray',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$isArray', arg, 1) as [Evaluator];
    return (frame) => Array.isArray(a(frame));
  },
};
