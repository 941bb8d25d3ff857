/**
 * The stage table, built from `stages/index.ts` and the catalogue: a stage by name, the position
 * and target mongod gives every stage it knows, and the names Mayfly does not implement yet,
 * derived as catalogue − registry (they answer 238). Built once, with the checks that keep the
 * constraints consistent (a writing stage is last and outside views, updates and sub-pipelines;
 * a stage that reads no input is first; a definition agrees with its catalogue line).
 */
import { STAGE_CATALOGUE } from './catalogue.js';
import type { StageConstraints, StageDefinition } from './stage.js';
import { STAGES } from './stages/index.js';

/** What mongod checks of a stage before parsing any specification. */
export interface StageFacts {
  readonly position: StageConstraints['position'];
  readonly target: StageConstraints['target'];
}

const FACTS: ReadonlyMap<string, StageFacts> = new Map(STAGE_CATALOGUE.map(([name, position, target]) => [name, { position, target }]));

const BY_NAME: ReadonlyMap<string, StageDefinition> = (() => {
  const map = new Map<string, StageDefinition>();
  for (const def of STAGES) {
    if (map.has(def.name)) throw new Error(`stage ${def.name} registered twice`);
    const facts = FACTS.get(def.name);
    if (facts === undefined) throw new Error(`stage ${def.name} is not in the catalogue`);
    const c = def.constraints;
    if (c.position !== facts.position || c.target !== facts.target) throw new Error(`stage ${def.name} disagrees with its catalogue line`);
    if (c.writes && (c.position !== 'last' || c.allowedIn.view || c.allowedIn.facet || c.allowedIn.lookup || c.allowedIn.unionWith || c.allowedIn.update)) {
      throw new Error(`stage ${def.name} writes, so it must be last and outside views, updates and sub-pipelines`);
    }
    if (c.input === 'none' && c.position !== 'first') throw new Error(`stage ${def.name} reads no input, so it must be first`);
    map.set(def.name, def);
  }
  return map;
})();

/** The stage called `name`, if Mayfly implements it. */
export function stageNamed(name: string): StageDefinition | undefined {
  return BY_NAME.get(name);
}

/** The position and target of a stage mongod knows (implemented or not); undefined for an unknown name. */
export function stageFacts(name: string): StageFacts | undefined {
  return FACTS.get(name);
}

/** The stages mongod 8.2 has that Mayfly does not implement yet. */
export const UNSUPPORTED_STAGES: ReadonlySet<string> = new Set(STAGE_CATALOGUE.map(([name]) => name).filter((name) => !BY_NAME.has(name)));
