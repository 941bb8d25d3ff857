/** `listIndexes`: the index specs of a collection as stored (`_id_` first), through a cursor. */
import { CommandError } from '../../errors/command_error.js';
import type { Document } from '../../bson/library.js';
import { listedIndexSpecs } from '../../storage/timeseries/listing.js';
import { IdlRules, collectionArg, intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import type { CommandDefinition } from '../types.js';

/** The `listIndexes` command (list_indexes.idl). */
export const listIndexes: CommandDefinition = {
  name: 'listIndexes',
  target: { type: 'string' },
  args: { cursor: IdlRules.cursorOptions, includeBuildUUIDs: IdlRules.safeBool, includeIndexBuildInfo: IdlRules.safeBool },
  help: 'list indexes for a collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'listIndexes', ctx.db);
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (!coll) ctx.server.catalog.assertNotView(ctx.db, name); // 166 on a view
    if (!coll) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
    const cursorOpts = (cmd.cursor ?? {}) as Document;
    // mongod names a listIndexes cursor `<db>.$cmd.listIndexes.<collection>`.
    return firstBatchReply(ctx, `${ctx.db}.$cmd.listIndexes.${name}`, listedIndexSpecs(coll)[Symbol.iterator](), {
      batchSize: intArg(cursorOpts, 'batchSize') ?? Number.MAX_SAFE_INTEGER,
    });
  },
};
