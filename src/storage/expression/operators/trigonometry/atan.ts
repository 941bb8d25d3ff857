/** `$atan` (ExpressionArcTangent): the arc tangent, in radians. */
import type { ExpressionOperator } from '../../types.js';
import { trigOperator } from './_internal.js';

/** `{$atan: <number>}`. */
export const atan: ExpressionOperator = trigOperator('$atan', Math.atan, 'atan', null);
