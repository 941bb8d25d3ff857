/** `createIndexes`: builds secondary indexes (unique enforced; TTL options checked by the TTL engine). */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { matchExistingIndex, normaliseIndexSpec } from '../../storage/indexes/index_spec.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `createIndexes` command. */
export const createIndexes: CommandDefinition = {
  name: 'createIndexes',
  target: { type: 'string' },
  args: {
    indexes: { type: 'array', required: true },
    commitQuorum: { type: ['number', 'string'] },
    ignoreUnknownIndexOptions: { type: 'bool' },
    isTimeseriesNamespace: { type: 'bool' },
  },
  help: 'creates one or more indexes on a collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'createIndexes', ctx.db);
    const rawSpecs = cmd.indexes as unknown[];
    if (rawSpecs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
    const specs = rawSpecs.map((raw) => ctx.server.ttl.checkIndexSpec(normaliseIndexSpec(raw), raw as Document));
    const { coll, created } = ctx.server.catalog.getOrCreate(ctx.db, name);
    const numIndexesBefore = coll.indexSpecs().length;
    const toBuild: Document[] = [];
    for (const spec of specs) {
      if (Object.keys(spec.key as Document).join() === '_id' && spec.name === '_id_') continue;
      const match = matchExistingIndex(spec, [...coll.indexSpecs(), ...toBuild]);
      if (match.kind === 'new') toBuild.push(spec);
    }
    const prefix: Document = ctx.server.ttl.createIndexesReplyPrefix();
    if (toBuild.length === 0) {
      return { ...prefix, numIndexesBefore, numIndexesAfter: numIndexesBefore, note: 'all indexes already exist' };
    }
    const built: string[] = [];
    try {
      for (const spec of toBuild) {
        coll.addIndex(spec, ctx.now());
        built.push(spec.name as string);
      }
    } catch (err) {
      for (const indexName of built) coll.dropIndex(indexName);
      if (created) ctx.server.catalog.drop(ctx.db, name);
      throw err;
    }
    for (const spec of toBuild) ctx.server.ttl.indexCreated(coll, spec);
    return { ...prefix, createdCollectionAutomatically: created, numIndexesBefore, numIndexesAfter: coll.indexSpecs().length };
  },
};
