/** `$acos` (ExpressionArcCosine): the arc cosine, in radians, of a value in [-1, 1] (50989 outside). */
import type { ExpressionOperator } from '../../types.js';
import { MINUS_ONE_TO_ONE, trigOperator } from './_internal.js';

/** `{$acos: <number>}`. */
export const acos: ExpressionOperator = trigOperator('$acos', Math.acos, 'acos', MINUS_ONE_TO_ONE);
