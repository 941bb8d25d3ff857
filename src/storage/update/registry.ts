/**
 * The update-operator table, built from `modifiers/index.ts`: an operator by name, and the names
 * mongod knows that Mayfly does not implement yet, derived as catalogue − registry.
 */
import { CommandError } from '../../errors/command_error.js';
import { UPDATE_OPERATOR_CATALOGUE } from './catalogue.js';
import { UPDATE_OPERATORS } from './modifiers/index.js';
import type { UpdateOperatorDefinition } from './modifiers/types.js';

const BY_NAME: ReadonlyMap<string, UpdateOperatorDefinition> = (() => {
  const map = new Map<string, UpdateOperatorDefinition>();
  const known = new Set(UPDATE_OPERATOR_CATALOGUE);
  for (const def of UPDATE_OPERATORS) {
    if (map.has(def.name)) throw new Error(`update operator ${def.name} registered twice`);
    if (!known.has(def.name)) throw new Error(`update operator ${def.name} is not in the catalogue`);
    map.set(def.name, def);
  }
  return map;
})();

/** The update operators mongod 8.2 has that Mayfly does not implement yet (they answer 238). */
export const UNSUPPORTED_UPDATE_OPERATORS: ReadonlySet<string> = new Set(
  UPDATE_OPERATOR_CATALOGUE.filter((name) => !BY_NAME.has(name)),
);

/** The operator called `name`, if Mayfly implements it (nothing else is looked up). */
export function updateOperatorNamed(name: string): UpdateOperatorDefinition | undefined {
  return BY_NAME.get(name);
}

/**
 * The operator called `name` for an update document: 238 when mongod has it and Mayfly not yet,
 * 9 "Unknown modifier" when mongod does not have it either.
 */
export function requireUpdateOperator(name: string): UpdateOperatorDefinition {
  const def = BY_NAME.get(name);
  if (def !== undefined) return def;
  if (UNSUPPORTED_UPDATE_OPERATORS.has(name)) {
    throw new CommandError('NotImplemented', `The update operator ${name} is not supported by Mayfly yet`);
  }
  throw new CommandError(
    'FailedToParse',
    `Unknown modifier: ${name}. Expected a valid update modifier or pipeline-style update specified as an array`,
  );
}
