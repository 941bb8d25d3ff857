/**
 * `$indexStats` (document_source_index_stats.cpp): one document per index of the aggregated
 * collection, `{name, key, host, accesses: {ops, since}, spec}`, first and only on a collection;
 * its specification is the empty object (28803 otherwise). On a view it reads the collection the
 * view's chain ends at (and, as mongod, must still be the first stage of the resolved pipeline).
 */
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$indexStats: {}}`. */
export const indexStats: StageDefinition = {
  name: '$indexStats',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {} },
  parse(spec, ctx) {
    if (!isDocument(spec) || Object.keys(spec).length > 0) {
      throw new CommandError(28803, 'The $indexStats stage specification must be an empty object');
    }
    let name = ctx.collection ?? '';
    const view = ctx.runtime.collections.resolveView(name);
    if (view !== undefined) {
      if (view.pipeline.length > 0) throw new CommandError(40602, '$indexStats is only valid as the first stage in a pipeline');
      name = view.source;
    }
    const server = ctx.runtime.server;
    return {
      *run() {
        yield* server.indexStats(name);
      },
    };
  },
};
