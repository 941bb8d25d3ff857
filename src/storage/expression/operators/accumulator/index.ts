/** The accumulator expressions, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { avg } from './avg.js';
import { max } from './max.js';
import { min } from './min.js';
import { sum } from './sum.js';

/** Accumulators used as expressions. */
export const ACCUMULATOR: readonly ExpressionOperator[] = [
  avg,
  max,
  min,
  sum,
];
