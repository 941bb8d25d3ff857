/** `$lastN` as an expression: the `$lastN` accumulator over an array. */
import { lastN as lastNAccumulator } from '../../../accumulators/last_n.js';
import { accumulatorNExpression } from './_internal.js';

/** `{$lastN: {n, input}}`. */
export const lastN = accumulatorNExpression(lastNAccumulator);
