/**
 * `$rank` (accumulator_rank.cpp, AccumulatorRank): `{$rank: {}}`, the position in the partition
 * of the first document with the same `sortBy` value (ties share it, the next rank skips them);
 * `sortBy` must have exactly one field. Values compare as the sort does (an array by its
 * least element ascending, its greatest descending).
 */
import { computeRanks, parseRankStyle } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$rank`. */
export const rank: WindowFunctionDefinition = {
  name: '$rank',
  parse(spec, ctx) {
    const key = parseRankStyle('$rank', spec, ctx).keys[0]!;
    const collator = ctx.expressions.runtime.collator;
    return {
      compute(p, out) {
        computeRanks(p.docs, key, collator, out, false);
      },
    };
  },
};
