/**
 * `$indexOfArray` (ExpressionIndexOfArray): the first index in [start, end) of an element equal
 * to the search value (BSON equality, strings under the collation), or -1. Null for a null or
 * missing array (the other arguments then unread); the indexes must be non-negative integral
 * Int32s (9711600, 9711601); an end past the array is the array's length.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { valuesEqual } from '../../../values/compare.js';
import { MISSING } from '../../../values/missing.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';
import { integral, parseRangedArguments } from './_internal.js';

/** A starting or ending index: an integral, non-negative number. */
function indexArgument(v: unknown, argumentName: string): number {
  const i = integral(v);
  if (i === undefined) {
    throw new CommandError(
      9711600,
      `$indexOfArrayrequires an integral ${argumentName}, found a value of type: ${typeName(v)}, with value: ${docValueToString(v)}`,
    );
  }
  if (i < 0) throw new CommandError(9711601, `$indexOfArray requires a nonnegative ${argumentName}, found: ${docValueToString(v)}`);
  return i;
}

/** `{$indexOfArray: [<array>, <search>, <start>?, <end>?]}`. */
export const indexOfArray: ExpressionOperator = {
  name: '$indexOfArray',
  parse(arg, scope) {
    const args = parseRangedArguments(scope, '$indexOfArray', arg, 2, 4);
    const [arrayArg, searchArg, startArg, endArg] = args as [Evaluator, Evaluator, Evaluator | undefined, Evaluator | undefined];
    return (frame) => {
      const array = arrayArg(frame);
      if (isNullish(array)) return null;
      if (!Array.isArray(array)) {
        throw new CommandError(40090, `$indexOfArray requires an array as a first argument, found: ${typeName(array)}`);
      }
      const start = startArg === undefined ? 0 : indexArgument(startArg(frame), 'starting index');
      const end = endArg === undefined ? array.length : Math.min(array.length, indexArgument(endArg(frame), 'ending index'));
      const search = searchArg(frame);
      const needle = search === MISSING ? undefined : search;
      const collator = frame.runtime.collator;
      for (let i = start; i < end; i++) {
        if (valuesEqual(array[i], needle, collator)) return i;
      }
      return -1;
    };
  },
};
