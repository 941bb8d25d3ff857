/** `$cosh` (ExpressionHyperbolicCosine): the hyperbolic cosine. */
import type { ExpressionOperator } from '../../types.js';
import { trigOperator } from './_internal.js';

/** `{$cosh: <number>}`. */
export const cosh: ExpressionOperator = trigOperator('$cosh', Math.cosh, 'cosh', null);
