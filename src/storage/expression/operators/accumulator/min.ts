/** `$min` as an expression: the `$min` accumulator over an array argument or the arguments. */
import { min as minAccumulator } from '../../../accumulators/min.js';
import { accumulatorExpression } from './_internal.js';

/** `{$min: <array>}` or `{$min: [<expression>, ...]}`. */
export const min = accumulatorExpression(minAccumulator);
