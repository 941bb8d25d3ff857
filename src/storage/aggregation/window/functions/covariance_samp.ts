/**
 * `$covarianceSamp` (window_function_covariance.cpp): `{$covarianceSamp: [x, y], window?}`, the
 * sample covariance of the numeric pairs of the frame (other values ignored), a Double; null
 * for fewer than two pairs. A window function only: `$group` does not know it.
 */
import { parseAccumulatorWindow } from '../accumulator.js';
import { CovarianceState } from '../states.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$covarianceSamp`. */
export const covarianceSamp: WindowFunctionDefinition = {
  name: '$covarianceSamp',
  parse: (spec, ctx) =>
    parseAccumulatorWindow({ name: '$covarianceSamp', argument: 'expression', create: () => new CovarianceState(true) }, spec, ctx),
};
