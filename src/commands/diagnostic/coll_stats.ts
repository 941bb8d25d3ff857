/** `collStats`: document count and sizes of one collection (scaled by `scale`). */
import { bsonSize, type Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { collectionArg, intArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `collStats` command. */
export const collStats: CommandDefinition = {
  name: 'collStats',
  aliases: ['collstats'],
  target: { type: 'string' },
  args: { scale: { type: 'number' }, verbose: { type: 'bool' } },
  help: '{ collStats:"blog.posts" , scale : 1 } scale divides sizes e.g. for KB use 1024',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'collStats', ctx.db);
    const scale = intArg(cmd, 'scale', 1);
    if (scale < 1) throw new CommandError('BadValue', 'scale has to be >= 1');
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (!coll) ctx.server.catalog.assertNotView(ctx.db, name); // 166 on a view
    if (!coll) throw new CommandError('NamespaceNotFound', `Collection [${ctx.db}.${name}] not found.`);
    const now = ctx.now();
    let count = 0;
    let size = 0;
    for (const rec of coll.scan(() => now)) {
      count++;
      size += bsonSize(rec.doc);
    }
    const indexSizes: Document = {};
    for (const spec of coll.indexSpecs()) indexSizes[spec.name as string] = Math.floor((count * 16) / scale);
    const totalIndexSize = Math.floor((count * 16 * coll.indexSpecs().length) / scale);
    return {
      ns: coll.ns,
      size: Math.floor(size / scale),
      count,
      avgObjSize: count === 0 ? 0 : Math.floor(size / count),
      numOrphanDocs: 0,
      storageSize: Math.floor(size / scale),
      freeStorageSize: 0,
      capped: false,
      nindexes: coll.indexSpecs().length,
      indexBuilds: [],
      totalIndexSize,
      totalSize: Math.floor(size / scale) + totalIndexSize,
      indexSizes,
      scaleFactor: scale,
    };
  },
};
