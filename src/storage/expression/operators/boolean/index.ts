/** The boolean operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { and } from './and.js';
import { not } from './not.js';
import { or } from './or.js';

/** Boolean expression operators. */
export const BOOLEAN: readonly ExpressionOperator[] = [
  and,
  not,
  or,
];
