/**
 * `$planCacheStats` (document_source_plan_cache_stats.cpp): the entries of the aggregated
 * collection's plan cache, first and only on a collection, only at read concern `local`. Mayfly
 * plans every query afresh: its cache is always empty, so the stage answers as mongod's does over
 * an empty cache, with no document. Its specification is an object (FailedToParse otherwise)
 * whose only option is `allHosts` (a boolean, 13111 otherwise; true only on a router: 4503200);
 * over a collection that does not exist it is 50933.
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$planCacheStats: {allHosts?: bool}}`. */
export const planCacheStats: StageDefinition = {
  name: '$planCacheStats',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {}, readConcern: 'localOnly' },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError('FailedToParse', `$planCacheStats value must be an object. Found: ${bsonTypeOf(spec)}`);
    for (const [key, value] of Object.entries(spec)) {
      if (key !== 'allHosts') throw new CommandError('FailedToParse', `unrecognized option to $planCacheStats: ${key}`);
      // BSONElement::Bool's type check (13111), null and numbers included.
      if (typeof value !== 'boolean') throw new CommandError(13111, `wrong type for field (allHosts) ${bsonTypeOf(value)} != bool`);
      if (value) throw new CommandError(4503200, "$planCacheStats stage does not support 'allHosts: true' outside of a sharded cluster");
    }
    const { collection, runtime } = ctx;
    return {
      *run() {
        if (collection !== null && runtime.server.documentCount(collection) === undefined && !runtime.collections.isView(collection)) {
          throw new CommandError(50933, `collection '${runtime.db}.${collection}' does not exist`);
        }
        // The cache is empty: every plan is made afresh.
      },
    };
  },
};
