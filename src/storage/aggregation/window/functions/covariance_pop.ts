/**
 * `$covariancePop` (window_function_covariance.cpp): `{$covariancePop: [x, y], window?}`, the
 * population covariance of the numeric pairs of the frame (other values ignored), a Double; 0
 * for one pair, null for none. A window function only: `$group` does not know it.
 */
import { accumulatorNamed } from '../../../accumulators/registry.js';
import type { Accumulator, AccumulatorDefinition } from '../../../accumulators/types.js';
import { arithmetic } from '../_internal.js';
import { parseAccumulatorWindow } from '../accumulator.js';
import { CovarianceState } from '../states.js';
import type { WindowFunctionDefinition } from '../types.js';

const avg = accumulatorNamed('$avg') as AccumulatorDefinition;

/** `$covariancePop`. */
export const covariancePop: WindowFunctionDefinition = {
  name: '$covariancePop',
  parse(spec, ctx) {
    const ops = { subtract: arithmetic(ctx, '$subtract'), multiply: arithmetic(ctx, '$multiply'), divide: arithmetic(ctx, '$divide') };
    const mean = (): Accumulator => avg.create(null, true);
    const create = (): Accumulator => new CovarianceState(false, ops, mean);
    return parseAccumulatorWindow({ name: '$covariancePop', argument: 'expression', create }, spec, ctx);
  },
};
