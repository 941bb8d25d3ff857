/** `$acosh` (ExpressionHyperbolicArcCosine): the hyperbolic arc cosine of a value in [1, inf] (50989 outside). */
import type { ExpressionOperator } from '../../types.js';
import { ONE_TO_INF, trigOperator } from './_internal.js';

/** `{$acosh: <number>}`. */
export const acosh: ExpressionOperator = trigOperator('$acosh', Math.acosh, 'acosh', ONE_TO_INF);
