/** `$min` (accumulator_min_max.cpp): the smallest value in BSON order, null and missing ignored. */
import { MinMaxState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$min`. */
export const min: AccumulatorDefinition = {
  name: '$min',
  argument: 'expression',
  create: (collator, removable = false) => new MinMaxState(-1, collator, removable),
};
