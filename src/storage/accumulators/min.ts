/** `$min` (accumulator_min_max.cpp): the smallest value in BSON order, null and missing ignored. */
import { keyBoundAsDocument, MinMaxState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$min`. */
export const min: AccumulatorDefinition = {
  name: '$min',
  argument: 'expression',
  groupOutput: keyBoundAsDocument,
  create: (collator, removable = false) => new MinMaxState(-1, collator, removable),
};
