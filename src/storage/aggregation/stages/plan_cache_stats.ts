/**
 * `$planCacheStats` (document_source_plan_cache_stats.cpp): the entries of the aggregated
 * collection's plan cache, first and only on a collection, only at read concern `local`. Mayfly
 * plans every query afresh: its cache is always empty, so the stage answers as mongod's does over
 * an empty cache, with no document. Its specification is an object (FailedToParse otherwise)
 * whose only option is `allHosts` (a boolean, meaningful on a router).
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$planCacheStats: {allHosts?: bool}}`. */
export const planCacheStats: StageDefinition = {
  name: '$planCacheStats',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {}, readConcern: 'localOnly' },
  parse(spec) {
    if (!isDocument(spec)) throw new CommandError('FailedToParse', `$planCacheStats value must be an object. Found: ${bsonTypeOf(spec)}`);
    for (const [key, value] of Object.entries(spec)) {
      if (key !== 'allHosts') throw new CommandError('FailedToParse', `unrecognized option to $planCacheStats: ${key}`);
      if (typeof value !== 'boolean') throw new CommandError('FailedToParse', `$planCacheStats 'allHosts' must be a boolean. Found: ${bsonTypeOf(value)}`);
    }
    return {
      *run() {
        // The cache is empty: every plan is made afresh.
      },
    };
  },
};
