/**
 * `$ifNull` (ExpressionIfNull): the first argument that is not null, undefined or missing, else
 * the last one (evaluated as it is); at least two arguments (1257300). A constant argument is
 * evaluated when parsed (mongod's optimizer folds it), so its errors surface even when unreached.
 */
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';
import { foldCheck } from './_internal.js';

/** `{$ifNull: [<expression>, ..., <replacement>]}`. */
export const ifNull: ExpressionOperator = {
  name: '$ifNull',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    // ExpressionIfNull::optimize folds every constant argument, the unreached ones included.
    if (Array.isArray(arg)) arg.forEach((raw, i) => foldCheck(raw, args[i]!));
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
