/**
 * The search stages (`$search`, `$searchMeta`, `$vectorSearch`, `$listSearchIndexes`): Mayfly has
 * no search node, so parsing one answers 31082 as mongod without one does, before the stage's
 * own specification is read (errors/search_not_enabled.ts).
 */
import type { CommandError } from '../../../../errors/command_error.js';
import type { StageDefinition } from '../../stage.js';

/** A search stage: first, over a collection, in `$lookup`/`$unionWith` too; parsing it is 31082. */
export function searchStage(name: `$${string}`, refuse: () => CommandError): StageDefinition {
  return {
    name,
    constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: { lookup: true, unionWith: true } },
    parse() {
      throw refuse();
    },
  };
}
