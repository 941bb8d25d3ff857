/** `$tan` (ExpressionTangent): the tangent of an angle in radians (an infinity is 50989). */
import type { ExpressionOperator } from '../../types.js';
import { FINITE, trigOperator } from './_internal.js';

/** `{$tan: <number>}`. */
export const tan: ExpressionOperator = trigOperator('$tan', Math.tan, 'tan', FINITE);
