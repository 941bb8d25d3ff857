/** `$reverseArray` (ExpressionReverseArray): the array reversed; null for null and missing. */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$reverseArray: <array>}`. */
export const reverseArray: ExpressionOperator = {
  name: '$reverseArray',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$reverseArray', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (isNullish(v)) return null;
      if (!Array.isArray(v)) {
        throw new CommandError(34435, `The argument to $reverseArray must be an array, but was of type: ${typeName(v)}`);
      }
      return v.slice().reverse();
    };
  },
};
