/**
 * `$topN` (accumulator_multi.cpp, AccumulatorTopBottomN): the first `n` outputs in the order of `sortBy` (`{n, output, sortBy}`), ties keeping the value
 * seen first; a missing output is null.
 */
import { nOf, parseTopBottomArguments, RecomputingState, TopBottomState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

const NO_ORDER = (): number => 0;

/** `$topN`. */
export const topN: AccumulatorDefinition = {
  name: '$topN',
  argument: 'object',
  parseArguments: (spec) => parseTopBottomArguments(spec, '$topN', false),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    const compare = options?.compare ?? NO_ORDER;
    const fresh = () => new TopBottomState(n, false, false, compare);
    return removable ? new RecomputingState(fresh) : fresh();
  },
};
