/**
 * `$lastN` (accumulator_multi.cpp, AccumulatorFirstLastN): `{$lastN: {n, input}}`, the
 * last `n` values in input order (a missing value as null); `n` a positive integer.
 */
import { FirstLastNState, nOf, parseNInput, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$lastN`. */
export const lastN: AccumulatorDefinition = {
  name: '$lastN',
  argument: 'object',
  parseArguments: (spec) => parseNInput(spec, '$lastN', 5787801),
  create(_collator, removable = false, options) {
    const n = nOf(options);
    return removable ? new RecomputingState(() => new FirstLastNState(n, true)) : new FirstLastNState(n, true);
  },
};
