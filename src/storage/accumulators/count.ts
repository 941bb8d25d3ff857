/** `$count` (accumulator_count.cpp): `{$count: {}}`, the number of documents (`$sum: 1`). */
import { SumState } from './_internal.js';
import type { AccumulatorDefinition } from './types.js';

/** `$count`: its state is fed 1 per document. */
export const count: AccumulatorDefinition = {
  name: '$count',
  argument: 'empty',
  create: () => new SumState(),
};
