/** The comparison operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { cmp } from './cmp.js';
import { eq } from './eq.js';
import { gt } from './gt.js';
import { gte } from './gte.js';
import { lt } from './lt.js';
import { lte } from './lte.js';
import { ne } from './ne.js';

/** Comparison expression operators. */
export const COMPARISON: readonly ExpressionOperator[] = [
  cmp,
  eq,
  gt,
  gte,
  lt,
  lte,
  ne,
];
