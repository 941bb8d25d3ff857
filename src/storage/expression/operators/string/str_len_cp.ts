/** `$strLenCP` (ExpressionStrLenCP): the number of code points of a string, as an Int32. */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { codePointLength, stringValue } from './_internal/coerce.js';

/** `{$strLenCP: <string>}`. */
export const strLenCP: ExpressionOperator = {
  name: '$strLenCP',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$strLenCP', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (typeof v !== 'string') throw new CommandError(34471, `$strLenCP requires a string argument, found: ${typeName(v)}`);
      return codePointLength(stringValue(v));
    };
  },
};
