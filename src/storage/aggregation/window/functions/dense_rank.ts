/**
 * `$denseRank` (accumulator_rank.cpp, AccumulatorDenseRank): `{$denseRank: {}}`, 1 for the first
 * `sortBy` value of the partition, one more for each new value (ties share it, no gaps);
 * `sortBy` must have exactly one field.
 */
import { sortKeyValue } from '../../../query/sort.js';
import { compareValues } from '../../../values/compare.js';
import { intOrLong } from '../../../values/numeric.js';
import { parseRankStyle } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$denseRank`. */
export const denseRank: WindowFunctionDefinition = {
  name: '$denseRank',
  parse(spec, ctx) {
    const key = parseRankStyle('$denseRank', spec, ctx).keys[0]!;
    const collator = ctx.expressions.runtime.collator;
    return {
      compute(p, out) {
        let last: unknown;
        let current = 0;
        p.docs.forEach((doc, i) => {
          const v = sortKeyValue(doc, key, collator);
          if (i === 0 || compareValues(v, last, collator) !== 0) current++;
          last = v;
          out[i] = intOrLong(BigInt(current));
        });
      },
    };
  },
};
