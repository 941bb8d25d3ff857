/** `getMore`: the next batch of an open cursor. */
import { Long } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, intArg, typeMismatch } from '../args.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { TailableCursor, type Cursor } from '../../storage/cursors.js';
import { ChangeStreamCursor } from '../../storage/change_stream.js';
import { failPointsOf } from '../../server/fail_points.js';
import { ErrorCodes } from '../../errors/codes.js';
import type { Document } from '../../bson/library.js';

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
    const injected = failPointsOf(ctx.server).failGetMoreAfterCursorCheckout.check(() => true);
    if (injected !== undefined) {
      const code = typeof injected.errorCode === 'number' ? injected.errorCode : ErrorCodes.InternalError;
      throw withResumableLabel(cursor, new CommandError(code, "Failing command via 'failGetMoreAfterCursorCheckout' failpoint"));
    }
    if (cursor instanceof TailableCursor) return tailableGetMore(ctx, cursor, batchSize === 0 ? undefined : batchSize, cmd.maxTimeMS as number | Long | undefined | null);
    // maxTimeMS is a getMore's await-data timeout, for tailable awaitData cursors only.
    if (cmd.maxTimeMS !== undefined && cmd.maxTimeMS !== null) {
      throw new CommandError('BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor');
    }
    ctx.server.counters.opcounters.getmore++;
    cursor.lastUsedMs = ctx.now();
    // A snapshot read's cursor answers with the time it reads at (sessions/snapshot_read.ts).
    const pin = cursor.pin;
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
    return pin === null ? { cursor: { nextBatch, id, ns } } : { cursor: { nextBatch, id, ns, atClusterTime: pin.atClusterTime } };
  },
};

/**
 * The errors after which a driver resumes a change stream (mongod's `isResumableChangeStreamError`:
 * network, not-primary, shutdown, stale-routing, time limit, RetryChangeStream).
 */
const RESUMABLE_CODES: ReadonlySet<number> = new Set([6, 7, 63, 89, 91, 133, 150, 189, 234, 262, 9001, 10107, 11600, 11602, 13388, 13435, 13436]);

/** `err` with the ResumableChangeStreamError label when `cursor` is a change stream and its code is resumable. */
function withResumableLabel(cursor: Cursor, err: CommandError): CommandError {
  if (!(cursor instanceof ChangeStreamCursor) || !RESUMABLE_CODES.has(err.code)) return err;
  return new CommandError(err.code, err.message, { ...err.extra, errorLabels: ['ResumableChangeStreamError'] });
}

/** How long a getMore on an awaitData cursor waits without a maxTimeMS (mongod's default, 1 second). */
const DEFAULT_AWAIT_DATA_MS = 1000;

/**
 * A getMore on a tailable cursor (a change stream, a tailing oplog read): what is there now; when
 * nothing is and the cursor awaits data, the reply waits for the commit that brings some (the
 * cursor's subscription wakes it) or for `maxTimeMS` on the server's clock, whichever is first.
 * killCursors ends the wait with 237 CursorKilled; a closed connection ends it unanswered.
 */
function tailableGetMore(ctx: CommandContext, cursor: TailableCursor, batchSize: number | undefined, maxTimeMS: number | Long | undefined | null): Document | Promise<Document> {
  const cursors = ctx.server.cursors;
  const ns = cursor.ns;
  ctx.server.counters.opcounters.getmore++;
  cursor.lastUsedMs = ctx.now();
  const reply = (nextBatch: Document[]): Document => {
    let id = cursor.id;
    const fields = cursor.replyFields();
    if (cursor.exhausted) {
      cursors.kill(cursor.id);
      id = Long.ZERO;
    }
    cursor.lastUsedMs = ctx.now();
    return { cursor: { nextBatch, ...fields, id, ns } };
  };
  const read = (): Document[] => {
    try {
      return cursor.nextBatch(batchSize);
    } catch (err) {
      cursors.kill(cursor.id);
      throw err;
    }
  };
  const first = read();
  const awaitMs = maxTimeMS === undefined || maxTimeMS === null ? DEFAULT_AWAIT_DATA_MS : Number(maxTimeMS);
  if (first.length > 0 || cursor.exhausted || !cursor.awaitData || awaitMs <= 0) return reply(first);
  const clock = ctx.server.clock;
  const deadline = clock.now() + awaitMs;
  return new Promise<Document>((resolve, reject) => {
    const stops: (() => void)[] = [];
    let settled = false;
    const settle = (answer: () => Document): void => {
      if (settled) return;
      settled = true;
      for (const stop of stops) stop();
      try {
        resolve(answer());
      } catch (err) {
        reject(err);
      }
    };
    // Woken inside the commit: read once it is over (a transaction's events together).
    stops.push(
      cursor.subscribe(() =>
        queueMicrotask(() => {
          if (settled) return;
          let batch: Document[];
          try {
            batch = read();
          } catch (err) {
            settled = true;
            for (const stop of stops) stop();
            reject(err);
            return;
          }
          if (batch.length > 0 || cursor.exhausted) settle(() => reply(batch));
        }),
      ),
    );
    stops.push(cursor.onClose(() => settle(() => {
      throw new CommandError('CursorKilled', `cursor id ${cursor.id.toString()} was killed while waiting for data`);
    })));
    const onConnectionClose = ctx.connection.onClosed(() => settle(() => ({ cursor: { nextBatch: [], id: cursor.id, ns } })));
    if (onConnectionClose) stops.push(onConnectionClose);
    if (clock.mode === 'manual') {
      stops.push(clock.onAdvance(() => {
        if (clock.now() >= deadline) settle(() => reply(read()));
      }));
    } else {
      const timer = setTimeout(() => settle(() => reply(read())), awaitMs);
      stops.push(() => clearTimeout(timer));
    }
  });
}
