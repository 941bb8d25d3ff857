/** `$max` (accumulator_min_max.cpp): the greatest value in BSON order, null and missing ignored. */
import { keyBoundAsDocument, MinMaxState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$max`. */
export const max: AccumulatorDefinition = {
  name: '$max',
  argument: 'expression',
  groupOutput: keyBoundAsDocument,
  create: (collator, removable = false) => new MinMaxState(1, collator, removable),
};
