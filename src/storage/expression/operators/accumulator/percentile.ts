/** `$percentile` as an expression: the `$percentile` accumulator over an array. */
import { percentile as percentileAccumulator } from '../../../accumulators/percentile.js';
import { quantileExpression } from './_internal.js';

/** `{$percentile: {input, p, method}}`. */
export const percentile = quantileExpression(percentileAccumulator);
