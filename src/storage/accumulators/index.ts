/** Every accumulator Mayfly implements, sorted by name: one line each. */
import { addToSet } from './add_to_set.js';
import { avg } from './avg.js';
import { count } from './count.js';
import { first } from './first.js';
import { last } from './last.js';
import { max } from './max.js';
import { min } from './min.js';
import { push } from './push.js';
import { sum } from './sum.js';
import type { AccumulatorDefinition } from './types.js';

/** The implemented accumulators. */
export const ACCUMULATORS: readonly AccumulatorDefinition[] = [
  addToSet,
  avg,
  count,
  first,
  last,
  max,
  min,
  push,
  sum,
];
