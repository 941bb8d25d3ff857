/** `$stdDevPop` as an expression: the `$stdDevPop` accumulator over an array argument or the arguments. */
import { stdDevPop as stdDevPopAccumulator } from '../../../accumulators/std_dev_pop.js';
import { accumulatorExpression } from './_internal.js';

/** `{$stdDevPop: <array>}` or `{$stdDevPop: [<expression>, ...]}`. */
export const stdDevPop = accumulatorExpression(stdDevPopAccumulator);
