/** `$type` (ExpressionType): the `$type` alias of its argument's BSON type, `"missing"` for an absent value. */
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';

/** `{$type: <expression>}`. */
export const type: ExpressionOperator = {
  name: '$type',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$type', arg, 1) as [Evaluator];
    return (frame) => typeName(a(frame));
  },
};
