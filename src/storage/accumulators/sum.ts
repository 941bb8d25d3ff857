/** `$sum` (accumulator_sum.cpp): the total of the numeric values, with mongod's result types (`SumState`). */
import { SumState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$sum`. */
export const sum: AccumulatorDefinition = {
  name: '$sum',
  argument: 'expression',
  create: () => new SumState(),
};
