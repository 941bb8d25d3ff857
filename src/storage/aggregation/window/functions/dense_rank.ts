/**
 * `$denseRank` (accumulator_rank.cpp, AccumulatorDenseRank): `{$denseRank: {}}`, 1 for the first
 * `sortBy` value of the partition, one more for each new value (ties share it, no gaps);
 * `sortBy` must have exactly one field.
 */
import { computeRanks, parseRankStyle } from '../_internal.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$denseRank`. */
export const denseRank: WindowFunctionDefinition = {
  name: '$denseRank',
  parse(spec, ctx) {
    const key = parseRankStyle('$denseRank', spec, ctx).keys[0]!;
    const collator = ctx.expressions.runtime.collator;
    return {
      compute(p, out) {
        computeRanks(p.docs, key, collator, out, true);
      },
    };
  },
};
