/** `$avg` as an expression: the `$avg` accumulator over an array argument or the arguments. */
import { avg as avgAccumulator } from '../../../accumulators/avg.js';
import { accumulatorExpression } from './_internal.js';

/** `{$avg: <array>}` or `{$avg: [<expression>, ...]}`. */
export const avg = accumulatorExpression(avgAccumulator);
