/** `getMore`: the next batch of an open cursor. */
import { Long } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, intArg, typeMismatch } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `getMore` command (`GetMoreCommandRequest` in getmore_command.idl). */
export const getMore: CommandDefinition = {
  name: 'getMore',
  // The cursor id: an Int64, null included in the errors.
  target: {
    type: 'any',
    parse(value, field, idl) {
      if (!(value instanceof Long)) throw typeMismatch(`${idl}.${field}`, value, ['long']);
    },
  },
  args: {
    collection: {
      type: 'string',
      required: true,
      parse(value, field, idl) {
        if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
        // query_request_helper::validateGetMoreCollectionName.
        if (value === '') throw new CommandError('InvalidNamespace', 'Collection names cannot be empty');
      },
    },
    batchSize: IdlRules.nonNegativeInt64,
    maxTimeMS: IdlRules.safeInt64(),
    term: IdlRules.long,
    lastKnownCommittedOpTime: { type: 'object' },
    includeQueryStatsMetrics: IdlRules.optionalBool,
  },
  help: 'retrieve more results from an existing cursor',
  run(ctx, cmd) {
    const cursorId = cmd.getMore as Long;
    const batchSize = intArg(cmd, 'batchSize');
    const ns = `${ctx.db}.${cmd.collection as string}`;
    const cursors = ctx.server.cursors;
    const cursor = cursors.get(cursorId, ctx.now());
    const user = ctx.connection.auth.user;
    if (cursor.owner !== null && (user === null || cursor.owner !== `${user.user}@${user.db}`)) {
      throw new CommandError('Unauthorized', `cursor id ${cursorId.toString()} was not created by the authenticated user`);
    }
    if (cursor.ns !== ns) {
      throw new CommandError('Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`);
    }
    // maxTimeMS is a getMore's await-data timeout; Mayfly has no awaitData (tailable) cursors.
    if (cmd.maxTimeMS !== undefined && cmd.maxTimeMS !== null) {
      throw new CommandError('BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor');
    }
    ctx.server.counters.opcounters.getmore++;
    cursor.lastUsedMs = ctx.now();
    let nextBatch;
    try {
      nextBatch = cursor.nextBatch(batchSize === undefined || batchSize === 0 ? undefined : batchSize);
    } catch (err) {
      // A cursor whose batch failed (maxTimeMS spent, a runtime error) is gone, as in mongod.
      cursors.kill(cursor.id);
      throw err;
    }
    let id = cursor.id;
    if (cursor.exhausted) {
      cursors.kill(cursor.id);
      id = Long.ZERO;
    }
    return { cursor: { nextBatch, id, ns } };
  },
};
