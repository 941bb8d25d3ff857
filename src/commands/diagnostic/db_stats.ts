/** `dbStats`: collections, objects and sizes of a database (scaled by `scale`). */
import { Long, makeDouble } from '../../bson/library.js';
import { recordSize } from '../../storage/record.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, boolArg, intArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `dbStats` command. */
export const dbStats: CommandDefinition = {
  name: 'dbStats',
  aliases: ['dbstats'],
  args: { scale: { type: 'number' }, freeStorage: IdlRules.safeBool },
  help: 'Get stats on a database. Not instantaneous. Slower for databases with large .ns files.',
  run(ctx, cmd) {
    const scale = intArg(cmd, 'scale', 1);
    if (scale < 1) throw new CommandError('BadValue', 'Scale factor must be greater than zero');
    const now = ctx.now();
    const colls = ctx.server.catalog.collections(ctx.db);
    let objects = 0;
    let dataSize = 0;
    let indexes = 0;
    for (const coll of colls) {
      indexes += coll.indexSpecs().length;
      for (const rec of coll.scan(() => now)) {
        objects++;
        dataSize += recordSize(rec);
      }
    }
    const indexSize = objects * 16 * (indexes > 0 ? 1 : 0);
    return {
      db: ctx.db,
      collections: Long.fromNumber(colls.length),
      views: Long.fromNumber(ctx.server.catalog.views(ctx.db).length),
      objects: Long.fromNumber(objects),
      avgObjSize: makeDouble(objects === 0 ? 0 : dataSize / objects),
      dataSize: makeDouble(dataSize / scale),
      storageSize: makeDouble(dataSize / scale),
      indexes: Long.fromNumber(indexes),
      indexSize: makeDouble(indexSize / scale),
      totalSize: makeDouble((dataSize + indexSize) / scale),
      // An in-memory store keeps no free pages: its free storage is nil.
      ...(boolArg(cmd, 'freeStorage', false) ? { freeStorageSize: makeDouble(0), indexFreeStorageSize: makeDouble(0), totalFreeStorageSize: makeDouble(0) } : {}),
      scaleFactor: Long.fromNumber(scale),
      fsUsedSize: makeDouble(0),
      fsTotalSize: makeDouble(0),
    };
  },
};
