/** `$concat` (ExpressionConcat): its string arguments joined; null or missing makes null, anything else 16702. */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { stringValue } from './_internal/coerce.js';

/** `{$concat: [<string>, ...]}`. */
export const concat: ExpressionOperator = {
  name: '$concat',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => {
      let out = '';
      for (const a of args) {
        const v = a(frame);
        if (isNullish(v)) return null;
        if (typeof v !== 'string') throw new CommandError(16702, `$concat only supports strings, not ${typeName(v)}`);
        out += v;
      }
      return stringValue(out);
    };
  },
};
