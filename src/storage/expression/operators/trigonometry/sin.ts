/** `$sin` (ExpressionSine): the sine of an angle in radians (an infinity is 50989). */
import type { ExpressionOperator } from '../../types.js';
import { FINITE, trigOperator } from './_internal.js';

/** `{$sin: <number>}`. */
export const sin: ExpressionOperator = trigOperator('$sin', Math.sin, 'sin', FINITE);
