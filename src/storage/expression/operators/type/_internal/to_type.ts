/**
 * The `$toInt`-like operators (`$toBool`, `$toDate`, `$toDecimal`, `$toDouble`, `$toInt`,
 * `$toLong`, `$toObjectId`, `$toString`, `$toUUID`): one argument (a one-element literal array
 * is unwrapped, another array is 50723), null for a nullish input, else the conversion.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { isNullish } from '../../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../../types.js';
import { convertValue } from './convert.js';
import type { ConvertOptions } from './options.js';

/** The argument of `{<name>: arg}`, parsed: a literal array must have exactly one element. */
export function parseSingleArgument(name: string, arg: unknown, scope: Parameters<ExpressionOperator['parse']>[1]): Evaluator {
  if (Array.isArray(arg)) {
    if (arg.length !== 1) {
      throw new CommandError(50723, `${name} takes exactly 1 arguments. ${arg.length} were passed in.`);
    }
    return scope.parse(arg[0]);
  }
  return scope.parse(arg);
}

/** The operator `name` converting with `opts`. */
export function toTypeOperator(name: `$${string}`, opts: ConvertOptions): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const a = parseSingleArgument(name, arg, scope);
      return (frame) => {
        const v = a(frame);
        return isNullish(v) ? null : convertValue(v, opts);
      };
    },
  };
}
