/**
 * `$maxN` (accumulator_multi.cpp, AccumulatorMinMaxN): `{$maxN: {n, input}}`, the `n`
 * greatest values in BSON order, descending; null and missing ignored.
 */
import { MinMaxNState, nOf, parseNInput, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$maxN`. */
export const maxN: AccumulatorDefinition = {
  name: '$maxN',
  argument: 'object',
  parseArguments: (spec) => parseNInput(spec, '$maxN', 5787900),
  create(collator, removable = false, options) {
    const n = nOf(options);
    return removable ? new RecomputingState(() => new MinMaxNState(n, 1, collator)) : new MinMaxNState(n, 1, collator);
  },
};
