/** `$stdDevPop` (accumulator_std_dev.cpp): the population standard deviation, a Double. */
import { StdDevState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$stdDevPop`: null without numeric input. */
export const stdDevPop: AccumulatorDefinition = {
  name: '$stdDevPop',
  argument: 'expression',
  create: () => new StdDevState(false),
};
