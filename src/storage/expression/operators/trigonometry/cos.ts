/** `$cos` (ExpressionCosine): the cosine of an angle in radians (an infinity is 50989). */
import type { ExpressionOperator } from '../../types.js';
import { FINITE, trigOperator } from './_internal.js';

/** `{$cos: <number>}`. */
export const cos: ExpressionOperator = trigOperator('$cos', Math.cos, 'cos', FINITE);
