/** The set operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';

/** Set expression operators. */
export const SET: readonly ExpressionOperator[] = [
];
