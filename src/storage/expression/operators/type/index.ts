/** The type operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { type } from './type.js';

/** Type expression operators. */
export const TYPE: readonly ExpressionOperator[] = [
  type,
];
