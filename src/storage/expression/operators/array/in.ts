/**
 * `$in` (ExpressionIn): whether a value equals an element of an array (BSON equality, strings
 * under the collation); the second argument must be an array (40081).
 */
import { CommandError } from '../../../../errors/command_error.js';
import { valuesEqual } from '../../../values/compare.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { typeName } from '../../value.js';

/** `{$in: [<expression>, <array>]}`. */
export const in_: ExpressionOperator = {
  name: '$in',
  parse(arg, scope) {
    const [needle, haystack] = scope.parseFixedArguments('$in', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const v = needle(frame);
      const arr = haystack(frame);
      if (!Array.isArray(arr)) {
        throw new CommandError(40081, `$in requires an array as a second argument, found: ${typeName(arr)}`);
      }
      const x = v === MISSING ? undefined : v;
      const collator = frame.runtime.collator;
      return arr.some((el) => valuesEqual(el, x, collator));
    };
  },
};
