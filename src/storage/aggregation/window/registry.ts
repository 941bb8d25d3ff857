/**
 * The window functions of `$setWindowFields`: the window-only functions of `functions/`, one
 * sorted line each, and every accumulator of the accumulator registry (`$sum`, `$push`...), run
 * over the frame by `accumulator.ts`. An unknown `$name` is "Unrecognized window function".
 */
import { accumulatorNamed } from '../../accumulators/registry.js';
import { covariancePop } from './functions/covariance_pop.js';
import { covarianceSamp } from './functions/covariance_samp.js';
import { denseRank } from './functions/dense_rank.js';
import { derivative } from './functions/derivative.js';
import { documentNumber } from './functions/document_number.js';
import { expMovingAvg } from './functions/exp_moving_avg.js';
import { integral } from './functions/integral.js';
import { linearFill } from './functions/linear_fill.js';
import { locf } from './functions/locf.js';
import { rank } from './functions/rank.js';
import { shift } from './functions/shift.js';
import type { WindowFunctionDefinition } from './types.js';

/** The window-only functions, sorted by name. */
export const WINDOW_FUNCTIONS: readonly WindowFunctionDefinition[] = [
  covariancePop,
  covarianceSamp,
  denseRank,
  derivative,
  documentNumber,
  expMovingAvg,
  integral,
  linearFill,
  locf,
  rank,
  shift,
];

const BY_NAME: ReadonlyMap<string, WindowFunctionDefinition> = (() => {
  const map = new Map<string, WindowFunctionDefinition>();
  for (const def of WINDOW_FUNCTIONS) {
    if (map.has(def.name)) throw new Error(`window function ${def.name} registered twice`);
    map.set(def.name, def);
  }
  return map;
})();

/** The window-only function called `name`, if any. */
export function windowFunctionNamed(name: string): WindowFunctionDefinition | undefined {
  return BY_NAME.get(name);
}

/** True when `name` is a window function: window-only, or an accumulator Mayfly implements. */
export function isWindowFunction(name: string): boolean {
  return BY_NAME.has(name) || accumulatorNamed(name) !== undefined;
}
