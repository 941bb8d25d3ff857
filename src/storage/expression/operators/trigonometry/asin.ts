/** `$asin` (ExpressionArcSine): the arc sine, in radians, of a value in [-1, 1] (50989 outside). */
import type { ExpressionOperator } from '../../types.js';
import { MINUS_ONE_TO_ONE, trigOperator } from './_internal.js';

/** `{$asin: <number>}`. */
export const asin: ExpressionOperator = trigOperator('$asin', Math.asin, 'asin', MINUS_ONE_TO_ONE);
