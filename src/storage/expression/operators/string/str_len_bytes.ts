/** `$strLenBytes` (ExpressionStrLenBytes): the number of UTF-8 bytes of a string, as an Int32. */
import { CommandError } from '../../../../errors/command_error.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';
import { stringValue, utf8Length } from './_internal/coerce.js';

/** `{$strLenBytes: <string>}`. */
export const strLenBytes: ExpressionOperator = {
  name: '$strLenBytes',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$strLenBytes', arg, 1) as [Evaluator];
    return (frame) => {
      const v = a(frame);
      if (typeof v !== 'string') throw new CommandError(34473, `$strLenBytes requires a string argument, found: ${typeName(v)}`);
      return utf8Length(stringValue(v));
    };
  },
};
