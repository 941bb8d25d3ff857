/**
 * `$log10` (ExpressionLog10): the base-10 logarithm, a Double (a Decimal128 for a positive
 * Decimal128); zero or a negative number is 28761 (a Decimal128 NaN gives a Double NaN, as
 * mongod falls back to a double); null or missing makes null.
 */
import type { ExpressionOperator } from '../../types.js';
import { logOperator } from './_internal.js';

/** `{$log10: <number>}`. */
export const log10: ExpressionOperator = logOperator('$log10', 'log10', 28761);
