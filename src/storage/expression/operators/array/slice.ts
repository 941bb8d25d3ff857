/**
 * `$slice` (ExpressionSlice): `[array, n]` takes the first n (the last -n when negative);
 * `[array, position, n]` takes n from a position (negative: from the end), n positive. Null
 * when the array, the first number or n is null or missing.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { numKind } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { doubleText, integral, parseRangedArguments } from './_internal.js';

/** `{$slice: [<array>, <n>]}` or `{$slice: [<array>, <position>, <n>]}`. */
export const slice: ExpressionOperator = {
  name: '$slice',
  parse(arg, scope) {
    const args = parseRangedArguments(scope, '$slice', arg, 2, 3);
    const [arrayArg, secondArg, countArg] = args as [Evaluator, Evaluator, Evaluator | undefined];
    return (frame) => {
      const array = arrayArg(frame);
      const second = secondArg(frame);
      if (isNullish(array) || isNullish(second)) return null;
      if (!Array.isArray(array)) {
        throw new CommandError(28724, `First argument to $slice must be an array, but is of type: ${typeName(array)}`);
      }
      if (numKind(second) === null) {
        throw new CommandError(28725, `Second argument to $slice must be a numeric value, but is of type: ${typeName(second)}`);
      }
      const n2 = integral(second);
      if (n2 === undefined) {
        throw new CommandError(28726, `Second argument to $slice can't be represented as a 32-bit integer: ${doubleText(second)}`);
      }
      const length = array.length;
      if (countArg === undefined) {
        return n2 >= 0 ? array.slice(0, Math.min(length, n2)) : array.slice(Math.max(0, length + n2));
      }
      const start = n2 < 0 ? Math.max(0, length + n2) : Math.min(length, n2);
      const countValue = countArg(frame);
      if (isNullish(countValue)) return null;
      if (numKind(countValue) === null) {
        throw new CommandError(28727, `Third argument to $slice must be numeric, but is of type: ${typeName(countValue)}`);
      }
      const count = integral(countValue);
      if (count === undefined) {
        throw new CommandError(28728, `Third argument to $slice can't be represented as a 32-bit integer: ${doubleText(countValue)}`);
      }
      if (count <= 0) throw new CommandError(28729, `Third argument to $slice must be positive: ${count}`);
      return array.slice(start, Math.min(start + count, length));
    };
  },
};
