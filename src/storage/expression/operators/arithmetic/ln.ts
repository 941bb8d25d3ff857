/**
 * `$ln` (ExpressionLn): the natural logarithm, a Double (a Decimal128 for a positive
 * Decimal128); zero or a negative number is 28766 (a Decimal128 NaN gives a Double NaN, as
 * mongod falls back to a double); null or missing makes null.
 */
import type { ExpressionOperator } from '../../types.js';
import { logOperator } from './_internal.js';

/** `{$ln: <number>}`. */
export const ln: ExpressionOperator = logOperator('$ln', 'ln', 28766);
