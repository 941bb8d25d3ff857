/** `$median` as an expression: the `$median` accumulator over an array. */
import { median as medianAccumulator } from '../../../accumulators/median.js';
import { quantileExpression } from './_internal.js';

/** `{$median: {input, method}}`. */
export const median = quantileExpression(medianAccumulator);
