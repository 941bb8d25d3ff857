/**
 * `$bottomN` (accumulator_multi.cpp, AccumulatorTopBottomN): the last `n` outputs in the order of `sortBy` (`{n, output, sortBy}`), ties keeping the value
 * seen first; a missing output is null.
 */
import { nOf, parseTopBottomArguments, RecomputingState, TopBottomState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

const NO_ORDER = (): number => 0;

/** `$bottomN`. */
export const bottomN: AccumulatorDefinition = {
  name: '$bottomN',
  argument: 'object',
  parseArguments: (spec) => parseTopBottomArguments(spec, '$bottomN', false),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    const compare = options?.compare ?? NO_ORDER;
    const fresh = () => new TopBottomState(n, true, false, compare);
    return removable ? new RecomputingState(fresh) : fresh();
  },
};
