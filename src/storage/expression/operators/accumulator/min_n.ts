/** `$minN` as an expression: the `$minN` accumulator over an array. */
import { minN as minNAccumulator } from '../../../accumulators/min_n.js';
import { accumulatorNExpression } from './_internal.js';

/** `{$minN: {n, input}}`. */
export const minN = accumulatorNExpression(minNAccumulator);
