/** Every accumulator Mayfly implements, sorted by name: one line each. */
import { addToSet } from './add_to_set.js';
import { avg } from './avg.js';
import { bottom } from './bottom.js';
import { bottomN } from './bottom_n.js';
import { concatArrays } from './concat_arrays.js';
import { count } from './count.js';
import { first } from './first.js';
import { firstN } from './first_n.js';
import { last } from './last.js';
import { lastN } from './last_n.js';
import { max } from './max.js';
import { maxN } from './max_n.js';
import { median } from './median.js';
import { mergeObjects } from './merge_objects.js';
import { min } from './min.js';
import { minN } from './min_n.js';
import { percentile } from './percentile.js';
import { push } from './push.js';
import { setUnion } from './set_union.js';
import { stdDevPop } from './std_dev_pop.js';
import { stdDevSamp } from './std_dev_samp.js';
import { sum } from './sum.js';
import { top } from './top.js';
import { topN } from './top_n.js';
import type { AccumulatorDefinition } from './types.js';

/** The implemented accumulators. */
export const ACCUMULATORS: readonly AccumulatorDefinition[] = [
  addToSet,
  avg,
  bottom,
  bottomN,
  concatArrays,
  count,
  first,
  firstN,
  last,
  lastN,
  max,
  maxN,
  median,
  mergeObjects,
  min,
  minN,
  percentile,
  push,
  setUnion,
  stdDevPop,
  stdDevSamp,
  sum,
  top,
  topN,
];
