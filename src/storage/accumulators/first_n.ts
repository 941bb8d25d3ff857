/**
 * `$firstN` (accumulator_multi.cpp, AccumulatorFirstLastN): `{$firstN: {n, input}}`, the
 * first `n` values in input order (a missing value as null); `n` a positive integer.
 */
import { FirstLastNState, nOf, parseNInput, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$firstN`. */
export const firstN: AccumulatorDefinition = {
  name: '$firstN',
  argument: 'object',
  parseArguments: (spec) => parseNInput(spec, '$firstN', 5787801),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    return removable ? new RecomputingState(() => new FirstLastNState(n, false)) : new FirstLastNState(n, false);
  },
};
