/** The bitwise operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';

/** Bitwise expression operators. */
export const BITWISE: readonly ExpressionOperator[] = [
];
