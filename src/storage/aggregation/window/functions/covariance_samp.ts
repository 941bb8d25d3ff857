/**
 * `$covarianceSamp` (window_function_covariance.cpp): `{$covarianceSamp: [x, y], window?}`, the
 * sample covariance of the numeric pairs of the frame (other values ignored), a Double; null
 * for fewer than two pairs. A window function only: `$group` does not know it.
 */
import { accumulatorNamed } from '../../../accumulators/registry.js';
import type { Accumulator, AccumulatorDefinition } from '../../../accumulators/types.js';
import { arithmetic } from '../_internal.js';
import { parseAccumulatorWindow } from '../accumulator.js';
import { CovarianceState } from '../states.js';
import type { WindowFunctionDefinition } from '../types.js';

const avg = accumulatorNamed('$avg') as AccumulatorDefinition;

/** `$covarianceSamp`. */
export const covarianceSamp: WindowFunctionDefinition = {
  name: '$covarianceSamp',
  parse(spec, ctx) {
    const ops = { subtract: arithmetic(ctx, '$subtract'), multiply: arithmetic(ctx, '$multiply'), divide: arithmetic(ctx, '$divide') };
    const mean = (): Accumulator => avg.create(null, true);
    const create = (): Accumulator => new CovarianceState(true, ops, mean);
    return parseAccumulatorWindow({ name: '$covarianceSamp', argument: 'expression', create }, spec, ctx);
  },
};
