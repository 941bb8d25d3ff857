/** `$stdDevSamp` as an expression: the `$stdDevSamp` accumulator over an array argument or the arguments. */
import { stdDevSamp as stdDevSampAccumulator } from '../../../accumulators/std_dev_samp.js';
import { accumulatorExpression } from './_internal.js';

/** `{$stdDevSamp: <array>}` or `{$stdDevSamp: [<expression>, ...]}`. */
export const stdDevSamp = accumulatorExpression(stdDevSampAccumulator);
