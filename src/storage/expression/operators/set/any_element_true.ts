/**
 * `$anyElementTrue` (ExpressionAnyElementTrue): true when an element of its one array argument
 * is truthy (`Value::coerceToBool`); anything but an array, null included, is 17041.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { toBool, typeName } from '../../value.js';

/** `{$anyElementTrue: [<array>]}`. */
export const anyElementTrue: ExpressionOperator = {
  name: '$anyElementTrue',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$anyElementTrue', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (!Array.isArray(v)) throw new CommandError(17041, `$anyElementTrue's argument must be an array, but is ${typeName(v)}`);
      for (const x of v) if (toBool(x)) return true;
      return false;
    };
  },
};
