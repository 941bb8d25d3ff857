/** `$size` (ExpressionSize): the length of an array (17124 for anything else, null and missing included). */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';

/** `{$size: <array>}`. */
export const size: ExpressionOperator = {
  name: '$size',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$size', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (!Array.isArray(v)) {
        throw new CommandError(17124, `The argument to $size must be an array, but was of type: ${typeName(v)}`);
      }
      return v.length;
    };
  },
};
