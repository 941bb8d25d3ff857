/**
 * The accumulator table, built from `index.ts`: an accumulator by name, and the names mongod
 * knows that Mayfly does not implement yet, derived as catalogue − registry.
 */
import { ACCUMULATOR_CATALOGUE } from './catalogue.js';
import { ACCUMULATORS } from './index.js';
import type { AccumulatorDefinition } from './types.js';

const BY_NAME: ReadonlyMap<string, AccumulatorDefinition> = (() => {
  const map = new Map<string, AccumulatorDefinition>();
  const known = new Set(ACCUMULATOR_CATALOGUE);
  for (const def of ACCUMULATORS) {
    if (map.has(def.name)) throw new Error(`accumulator ${def.name} registered twice`);
    if (!known.has(def.name)) throw new Error(`accumulator ${def.name} is not in the catalogue`);
    map.set(def.name, def);
  }
  return map;
})();

/** The accumulator called `name`, if Mayfly implements it. */
export function accumulatorNamed(name: string): AccumulatorDefinition | undefined {
  return BY_NAME.get(name);
}

/** The accumulators mongod 8.2 has that Mayfly does not implement yet (they answer 238). */
export const UNSUPPORTED_ACCUMULATORS: ReadonlySet<string> = new Set(ACCUMULATOR_CATALOGUE.filter((name) => !BY_NAME.has(name)));
