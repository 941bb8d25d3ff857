/** `$maxN` as an expression: the `$maxN` accumulator over an array. */
import { maxN as maxNAccumulator } from '../../../accumulators/max_n.js';
import { accumulatorNExpression } from './_internal.js';

/** `{$maxN: {n, input}}`. */
export const maxN = accumulatorNExpression(maxNAccumulator);
