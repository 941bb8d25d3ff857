/** `$or` (ExpressionOr): true when an argument is truthy (`Value::coerceToBool`); false for none. */
import type { ExpressionOperator } from '../../types.js';
import { toBool } from '../../value.js';

/** `{$or: [<expression>, ...]}`. */
export const or: ExpressionOperator = {
  name: '$or',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => args.some((a) => toBool(a(frame)));
  },
};
