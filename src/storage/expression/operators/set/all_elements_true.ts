/**
 * `$allElementsTrue` (ExpressionAllElementsTrue): true when no element of its one array
 * argument is falsy (`Value::coerceToBool`); anything but an array, null included, is 17040.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { toBool, typeName } from '../../value.js';

/** `{$allElementsTrue: [<array>]}`. */
export const allElementsTrue: ExpressionOperator = {
  name: '$allElementsTrue',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$allElementsTrue', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (!Array.isArray(v)) throw new CommandError(17040, `$allElementsTrue's argument must be an array, but is ${typeName(v)}`);
      for (const x of v) if (!toBool(x)) return false;
      return true;
    };
  },
};
