/**
 * `$bottom` (accumulator_multi.cpp, AccumulatorTopBottomN): the last output in the order of `sortBy` (`{output, sortBy}`), ties keeping the value
 * seen first; a missing output is null.
 */
import { nOf, parseTopBottomArguments, RecomputingState, TopBottomState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

const NO_ORDER = (): number => 0;

/** `$bottom`. */
export const bottom: AccumulatorDefinition = {
  name: '$bottom',
  argument: 'object',
  parseArguments: (spec) => parseTopBottomArguments(spec, '$bottom', true),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    const compare = options?.compare ?? NO_ORDER;
    const fresh = () => new TopBottomState(n, true, true, compare);
    return removable ? new RecomputingState(fresh) : fresh();
  },
};
