/**
 * `$minN` (accumulator_multi.cpp, AccumulatorMinMaxN): `{$minN: {n, input}}`, the `n`
 * least values in BSON order, ascending; null and missing ignored.
 */
import { MinMaxNState, nOf, parseNInput, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$minN`. */
export const minN: AccumulatorDefinition = {
  name: '$minN',
  argument: 'object',
  parseArguments: (spec) => parseNInput(spec, '$minN', 5787900),
  create(collator, removable = false, options) {
    const n = nOf(options);
    return removable ? new RecomputingState(() => new MinMaxNState(n, -1, collator)) : new MinMaxNState(n, -1, collator);
  },
};
