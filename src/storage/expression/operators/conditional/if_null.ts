/**
 * `$ifNull` (ExpressionIfNull): the first argument that is not null, undefined or missing, else
 * the last one (evaluated as it is); at least two arguments (1257300).
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';

/** `{$ifNull: [<expression>, ..., <replacement>]}`. */
export const ifNull: ExpressionOperator = {
  name: '$ifNull',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    if (args.length < 2) throw new CommandError(1257300, `$ifNull needs at least two arguments, had: ${args.length}`);
    const last = args[args.length - 1]!;
    const inputs = args.slice(0, -1);
    return (frame) => {
      for (const input of inputs) {
        const v = input(frame);
        if (!isNullish(v)) return v;
      }
      return last(frame);
    };
  },
};
