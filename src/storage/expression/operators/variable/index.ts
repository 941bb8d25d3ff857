/** The variable operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { let_ } from './let.js';

/** Variable expression operators. */
export const VARIABLE: readonly ExpressionOperator[] = [
  let_,
];
