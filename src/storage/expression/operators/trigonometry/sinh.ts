/** `$sinh` (ExpressionHyperbolicSine): the hyperbolic sine. */
import type { ExpressionOperator } from '../../types.js';
import { trigOperator } from './_internal.js';

/** `{$sinh: <number>}`. */
export const sinh: ExpressionOperator = trigOperator('$sinh', Math.sinh, 'sinh', null);
