/** `$firstN` as an expression: the `$firstN` accumulator over an array. */
import { firstN as firstNAccumulator } from '../../../accumulators/first_n.js';
import { accumulatorNExpression } from './_internal.js';

/** `{$firstN: {n, input}}`. */
export const firstN = accumulatorNExpression(firstNAccumulator);
