/** `$atanh` (ExpressionHyperbolicArcTangent): the hyperbolic arc tangent of a value in [-1, 1] (50989 outside). */
import type { ExpressionOperator } from '../../types.js';
import { MINUS_ONE_TO_ONE, trigOperator } from './_internal.js';

/** `{$atanh: <number>}`. */
export const atanh: ExpressionOperator = trigOperator('$atanh', Math.atanh, 'atanh', MINUS_ONE_TO_ONE);
