/**
 * `$percentile` (accumulator_percentile.cpp): `{$percentile: {input, p: [..], method}}`, one
 * Double per `p` of the numeric inputs (others ignored), nulls without numeric input.
 */
import { parsePercentileArguments, percentileSettingsOf, PercentileState, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$percentile`. */
export const percentile: AccumulatorDefinition = {
  name: '$percentile',
  argument: 'object',
  parseArguments: (spec, form) => parsePercentileArguments(spec, '$percentile', form === 'expression' ? 7436200 : 7429703),
  create(_collator, removable = false, options) {
    const settings = percentileSettingsOf(options, false);
    return removable ? new RecomputingState(() => new PercentileState(settings)) : new PercentileState(settings);
  },
};
