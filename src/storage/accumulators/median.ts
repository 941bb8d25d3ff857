/**
 * `$median` (accumulator_percentile.cpp, AccumulatorMedian): `{$median: {input, method}}`, the
 * 0.5 percentile of the numeric inputs as a Double (others ignored), null without one.
 */
import { parsePercentileArguments, percentileSettingsOf, PercentileState, RecomputingState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$median`. */
export const median: AccumulatorDefinition = {
  name: '$median',
  argument: 'object',
  parseArguments: (spec, form) => parsePercentileArguments(spec, '$median', form === 'expression' ? 7436201 : 7436100),
  create(_collator, removable = false, options) {
    const settings = percentileSettingsOf(options, true);
    return removable ? new RecomputingState(() => new PercentileState(settings)) : new PercentileState(settings);
  },
};
