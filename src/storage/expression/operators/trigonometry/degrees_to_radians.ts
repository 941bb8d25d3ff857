/**
 * `$degreesToRadians` (ExpressionDegreesToRadians): an angle in degrees converted to radians (times π/180), a Double (a Decimal128, the exact product by the 34-digit
 * factor rounded, for a Decimal128); null or missing makes null, a non-number is 28765.
 */
import type { ExpressionOperator } from '../../types.js';
import { angleConversionOperator } from './_internal.js';

/** `{$degreesToRadians: <number>}`. */
export const degreesToRadians: ExpressionOperator = angleConversionOperator('$degreesToRadians');
