/** `$sum` as an expression: the `$sum` accumulator over an array argument or the arguments. */
import { sum as sumAccumulator } from '../../../accumulators/sum.js';
import { accumulatorExpression } from './_internal.js';

/** `{$sum: <array>}` or `{$sum: [<expression>, ...]}`. */
export const sum = accumulatorExpression(sumAccumulator);
