/**
 * `$rank` (accumulator_rank.cpp, AccumulatorRank): `{$rank: {}}`, the position in the partition
 * of the first document with the same `sortBy` value (ties share it, the next rank skips them);
 * `sortBy` must have exactly one field. Values compare as the sort does (an array by its
 * least element ascending, its greatest descending).
 */
import { sortKeyValue } from '../../../query/sort.js';
import { compareValues } from '../../../values/compare.js';
import { intOrLong } from '../../../values/numeric.js';
import { parseRankStyle } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$rank`. */
export const rank: WindowFunctionDefinition = {
  name: '$rank',
  parse(spec, ctx) {
    const key = parseRankStyle('$rank', spec, ctx).keys[0]!;
    const collator = ctx.expressions.runtime.collator;
    return {
      compute(p, out) {
        let last: unknown;
        let current = 0;
        p.docs.forEach((doc, i) => {
          const v = sortKeyValue(doc, key, collator);
          if (i === 0 || compareValues(v, last, collator) !== 0) current = i + 1;
          last = v;
          out[i] = intOrLong(BigInt(current));
        });
      },
    };
  },
};
