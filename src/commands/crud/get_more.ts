/** `getMore`: the next batch of an open cursor. */
import { Long } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { intArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkNonNegative } from './query_exec.js';

/** The `getMore` command. */
export const getMore: CommandDefinition = {
  name: 'getMore',
  target: { type: 'number' },
  args: {
    collection: { type: 'string', required: true },
    batchSize: { type: 'number' },
    maxTimeMS: { type: 'number' },
    term: { type: 'number' },
    lastKnownCommittedOpTime: { type: 'object' },
    includeQueryStatsMetrics: { type: 'bool' },
  },
  help: 'retrieve more results from an existing cursor',
  run(ctx, cmd) {
    const rawId = cmd.getMore;
    if (!(rawId instanceof Long)) {
      throw new CommandError('TypeMismatch', `BSON field 'getMore.getMore' is the wrong type '${bsonTypeOf(rawId)}', expected type 'long'`);
    }
    const batchSize = intArg(cmd, 'batchSize');
    checkNonNegative('batchSize', batchSize);
    const ns = `${ctx.db}.${cmd.collection as string}`;
    const cursors = ctx.server.cursors;
    const cursor = cursors.get(rawId, ctx.now());
    if (cursor.ns !== ns) {
      throw new CommandError('Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`);
    }
    ctx.server.counters.opcounters.getmore++;
    cursor.lastUsedMs = ctx.now();
    const nextBatch = cursor.nextBatch(batchSize === undefined || batchSize === 0 ? undefined : batchSize);
    let id = cursor.id;
    if (cursor.exhausted) {
      cursors.kill(cursor.id);
      id = Long.ZERO;
    }
    return { cursor: { nextBatch, id, ns } };
  },
};
