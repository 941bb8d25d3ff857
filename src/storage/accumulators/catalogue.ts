/**
 * Every accumulator of mongod 8.2's `$group` (accumulator_*.cpp, REGISTER_ACCUMULATOR), one per
 * line, whether Mayfly implements it or not: what is not in `index.ts` answers 238
 * NotImplemented (registry.ts), never "unknown group operator". Never edited to add one.
 * `$covariancePop`/`$covarianceSamp` are not here: mongod registers them as window functions
 * only (REGISTER_STABLE_REMOVABLE_WINDOW_FUNCTION), so `$group` calls them unknown (15952);
 * they are `../aggregation/window/functions/`.
 */
export const ACCUMULATOR_CATALOGUE: readonly string[] = [
  '$accumulator',
  '$addToSet',
  '$avg',
  '$bottom',
  '$bottomN',
  '$concatArrays',
  '$count',
  '$first',
  '$firstN',
  '$last',
  '$lastN',
  '$max',
  '$maxN',
  '$median',
  '$mergeObjects',
  '$min',
  '$minN',
  '$percentile',
  '$push',
  '$setUnion',
  '$stdDevPop',
  '$stdDevSamp',
  '$sum',
  '$top',
  '$topN',
];
