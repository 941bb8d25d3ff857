/**
 * `$trunc` (ExpressionTrunc): the number truncated toward zero at a decimal place (default 0,
 * in [-20, 100]), in its own type; null or missing number or place makes null.
 */
import type { ExpressionOperator } from '../../types.js';
import { roundOrTruncOperator } from './_internal.js';

/** `{$trunc: <number>}` or `{$trunc: [<number>, <place>]}`. */
export const trunc: ExpressionOperator = roundOrTruncOperator('$trunc', 'towardZero');
