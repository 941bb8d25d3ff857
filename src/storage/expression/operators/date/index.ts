/** The date and timestamp operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';

/** Date and timestamp expression operators. */
export const DATE: readonly ExpressionOperator[] = [
];
