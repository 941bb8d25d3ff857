/** `$tanh` (ExpressionHyperbolicTangent): the hyperbolic tangent. */
import type { ExpressionOperator } from '../../types.js';
import { trigOperator } from './_internal.js';

/** `{$tanh: <number>}`. */
export const tanh: ExpressionOperator = trigOperator('$tanh', Math.tanh, 'tanh', null);
