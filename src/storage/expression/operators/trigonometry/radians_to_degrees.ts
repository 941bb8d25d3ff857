/**
 * `$radiansToDegrees` (ExpressionRadiansToDegrees): an angle in radians converted to degrees (times 180/π), a Double (a Decimal128, the exact product by the 34-digit
 * factor rounded, for a Decimal128); null or missing makes null, a non-number is 28765.
 */
import type { ExpressionOperator } from '../../types.js';
import { angleConversionOperator } from './_internal.js';

/** `{$radiansToDegrees: <number>}`. */
export const radiansToDegrees: ExpressionOperator = angleConversionOperator('$radiansToDegrees');
