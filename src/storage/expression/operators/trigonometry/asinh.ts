/** `$asinh` (ExpressionHyperbolicArcSine): the hyperbolic arc sine. */
import type { ExpressionOperator } from '../../types.js';
import { trigOperator } from './_internal.js';

/** `{$asinh: <number>}`. */
export const asinh: ExpressionOperator = trigOperator('$asinh', Math.asinh, 'asinh', null);
