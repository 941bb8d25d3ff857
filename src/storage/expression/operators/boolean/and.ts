/** `$and` (ExpressionAnd): true when every argument is truthy (`Value::coerceToBool`); true for none. */
import type { ExpressionOperator } from '../../types.js';
import { toBool } from '../../value.js';

/** `{$and: [<expression>, ...]}`. */
export const and: ExpressionOperator = {
  name: '$and',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => args.every((a) => toBool(a(frame)));
  },
};
