/**
 * `$covariancePop` (window_function_covariance.cpp): `{$covariancePop: [x, y], window?}`, the
 * population covariance of the numeric pairs of the frame (other values ignored), a Double; 0
 * for one pair, null for none. A window function only: `$group` does not know it.
 */
import { parseAccumulatorWindow } from '../accumulator.js';
import { CovarianceState } from '../states.js';
import type { WindowFunctionDefinition } from '../types.js';

/** `$covariancePop`. */
export const covariancePop: WindowFunctionDefinition = {
  name: '$covariancePop',
  parse: (spec, ctx) =>
    parseAccumulatorWindow({ name: '$covariancePop', argument: 'expression', create: () => new CovarianceState(false) }, spec, ctx),
};
