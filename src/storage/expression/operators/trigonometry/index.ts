/** The trigonometric operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';

/** Trigonometric expression operators. */
export const TRIGONOMETRY: readonly ExpressionOperator[] = [
];
