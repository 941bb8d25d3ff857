/**
 * `$concatArrays` (ExpressionConcatArrays): the arrays joined in order; null as soon as one
 * argument is null or missing (later ones unread), 28664 for anything else not an array.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$concatArrays: [<array>, ...]}`. */
export const concatArrays: ExpressionOperator = {
  name: '$concatArrays',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => {
      const out: unknown[] = [];
      for (const ev of args) {
        const v = ev(frame);
        if (isNullish(v)) return null;
        if (!Array.isArray(v)) throw new CommandError(28664, `$concatArrays only supports arrays, not ${typeName(v)}`);
        for (const el of v) out.push(el);
      }
      return out;
    };
  },
};
