/** The accumulator expressions, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { avg } from './avg.js';
import { firstN } from './first_n.js';
import { lastN } from './last_n.js';
import { max } from './max.js';
import { maxN } from './max_n.js';
import { median } from './median.js';
import { min } from './min.js';
import { minN } from './min_n.js';
import { percentile } from './percentile.js';
import { stdDevPop } from './std_dev_pop.js';
import { stdDevSamp } from './std_dev_samp.js';
import { sum } from './sum.js';

/** Accumulators used as expressions. */
export const ACCUMULATOR: readonly ExpressionOperator[] = [
  avg,
  firstN,
  lastN,
  max,
  maxN,
  median,
  min,
  minN,
  percentile,
  stdDevPop,
  stdDevSamp,
  sum,
];
