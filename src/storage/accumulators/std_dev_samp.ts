/** `$stdDevSamp` (accumulator_std_dev.cpp): the sample standard deviation, a Double. */
import { StdDevState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$stdDevSamp`: null with fewer than two numeric values. */
export const stdDevSamp: AccumulatorDefinition = {
  name: '$stdDevSamp',
  argument: 'expression',
  create: () => new StdDevState(true),
};
