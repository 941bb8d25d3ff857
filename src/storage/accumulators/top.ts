/**
 * `$top` (accumulator_multi.cpp, AccumulatorTopBottomN): the first output in the order of `sortBy` (`{output, sortBy}`), ties keeping the value
 * seen first; a missing output is null.
 */
import { nOf, parseTopBottomArguments, RecomputingState, TopBottomState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

const NO_ORDER = (): number => 0;

/** `$top`. */
export const top: AccumulatorDefinition = {
  name: '$top',
  argument: 'object',
  parseArguments: (spec) => parseTopBottomArguments(spec, '$top', true),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    const compare = options?.compare ?? NO_ORDER;
    const fresh = () => new TopBottomState(n, false, true, compare);
    return removable ? new RecomputingState(fresh) : fresh();
  },
};
