/** `$max` as an expression: the `$max` accumulator over an array argument or the arguments. */
import { max as maxAccumulator } from '../../../accumulators/max.js';
import { accumulatorExpression } from './_internal.js';

/** `{$max: <array>}` or `{$max: [<expression>, ...]}`. */
export const max = accumulatorExpression(maxAccumulator);
