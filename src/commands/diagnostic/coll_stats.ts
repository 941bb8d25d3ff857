/**
 * `collStats`: document count and sizes of one collection (scaled by `scale`); a capped
 * collection also reports `max` and `maxSize`. The same statistics are the `storageStats` of
 * the `$collStats` aggregation stage.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { recordSize } from '../../storage/record.js';
import type { Collection } from '../../storage/collection.js';
import { collectionArg, intArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The statistics of `coll` at `now`, sizes divided by `scale` (without `ns`). */
export function storageStats(coll: Collection, now: number, scale: number): Document {
  let count = 0;
  let size = 0;
  for (const rec of coll.scan(() => now)) {
    count++;
    size += recordSize(rec);
  }
  const indexSizes: Document = {};
  for (const spec of coll.indexSpecs()) indexSizes[spec.name as string] = Math.floor((count * 16) / scale);
  const totalIndexSize = Math.floor((count * 16 * coll.indexSpecs().length) / scale);
  const stats: Document = {
    size: Math.floor(size / scale),
    count,
    avgObjSize: count === 0 ? 0 : Math.floor(size / count),
    numOrphanDocs: 0,
    storageSize: Math.floor(size / scale),
    freeStorageSize: 0,
    capped: coll.capped !== null,
  };
  if (coll.capped) {
    stats.max = coll.options.max ?? 0;
    stats.maxSize = typeof coll.options.size === 'number' ? Math.floor(coll.options.size / scale) : coll.options.size;
  }
  Object.assign(stats, {
    nindexes: coll.indexSpecs().length,
    indexBuilds: [],
    totalIndexSize,
    totalSize: Math.floor(size / scale) + totalIndexSize,
    indexSizes,
    scaleFactor: scale,
  });
  return stats;
}

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
    return { ns: coll.ns, ...storageStats(coll, ctx.now(), scale) };
  },
};
