/** `getMore`: the next batch of an open cursor. */
import { Binary, Long, Timestamp } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, checkNonNegative, typeMismatch } from '../args.js';
import type { ArgRule, CommandContext, CommandDefinition } from '../types.js';
import { TailableCursor, type Cursor, type CursorSession } from '../../storage/cursors.js';
import { ChangeStreamCursor } from '../../storage/change_stream.js';
import { failPointsOf } from '../../server/fail_points.js';
import { ErrorCodes } from '../../errors/codes.js';
import type { Document } from '../../bson/library.js';
import { safeNumberLong } from '../../storage/values/numeric.js';
import { NO_AUTH_USER_DIGEST, sessionIdOf } from '../../sessions/session_catalog.js';

/** A required field given as null: mongod's IDL reads it as missing (40414). */
function missingField(field: string): CommandError {
  return new CommandError('IDLFailedToParse', `BSON field 'getMore.${field}' is missing but a required field`);
}

/** `long`: an Int64 only (a Timestamp, which the BSON library derives from Long, is not one). */
function checkLong(path: string, value: unknown): void {
  if (!(value instanceof Long) || value instanceof Timestamp) throw typeMismatch(path, value, ['long']);
}

/** `term`: a `long` (null reads as absent). */
const termRule: ArgRule = {
  type: 'any',
  parse(value, field, idl) {
    if (value !== null) checkLong(`${idl}.${field}`, value);
  },
};

/** The `getMore` command (`GetMoreCommandRequest` in getmore_command.idl). */
export const getMore: CommandDefinition = {
  name: 'getMore',
  // The cursor id: an Int64 (null reads as missing).
  target: {
    type: 'any',
    parse(value, field, idl) {
      if (value === null) throw missingField(field);
      checkLong(`${idl}.${field}`, value);
    },
  },
  args: {
    collection: {
      type: 'string',
      required: true,
      parse(value, field, idl) {
        if (value === null) throw missingField(field);
        if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
        checkGetMoreCollectionName(value);
      },
    },
    // A safeInt64 >= 0: mongod 8.2 answers a negative one with 2 BadValue.
    batchSize: {
      type: 'any',
      parse(value, field, idl) {
        if (value !== null) checkNonNegative(`${idl}.${field}`, field, value);
      },
    },
    maxTimeMS: IdlRules.safeInt64(),
    term: termRule,
    lastKnownCommittedOpTime: { type: 'object' },
    includeQueryStatsMetrics: IdlRules.optionalBool,
  },
  concerns: { writeConcern: false },
  help: 'retrieve more results from an existing cursor',
  run(ctx, cmd) {
    const cursorId = cmd.getMore as Long;
    // batchSize as safeNumberLong reads it (NaN: 0, a Decimal128 rounded half to even); 0: no limit.
    const batchSize = cmd.batchSize === undefined || cmd.batchSize === null ? 0 : Number(safeNumberLong(cmd.batchSize)!);
    const ns = `${ctx.db}.${cmd.collection as string}`;
    const cursors = ctx.server.cursors;
    const cursor = cursors.get(cursorId, ctx.now());
    if (cursor.killedBy !== null) {
      // Killed by a drop or rename of its collection: this getMore reports it, and it is gone.
      cursors.kill(cursor.id);
      throw cursor.killedBy;
    }
    // A user can only continue their own cursor (13), checked before its session (mongod's order).
    const user = ctx.connection.auth.user;
    if (cursor.owner !== null && (user === null || cursor.owner !== `${user.user}@${user.db}`)) {
      throw new CommandError('Unauthorized', `cursor id ${cursorId.toString()} was not created by the authenticated user`);
    }
    checkSession(cursorId, cursor.session, cmd.lsid);
    if (!sameCursorNamespace(ns, cursor.ns)) {
      throw new CommandError('Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`);
    }
    // maxTimeMS is a getMore's await-data timeout, for tailable awaitData cursors only.
    const awaitData = cursor instanceof TailableCursor && cursor.awaitData;
    if (cmd.maxTimeMS !== undefined && cmd.maxTimeMS !== null && !awaitData) {
      throw new CommandError('BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor');
    }
    const injected = failPointsOf(ctx.server).failGetMoreAfterCursorCheckout.check(() => true);
    if (injected !== undefined) {
      const code = typeof injected.errorCode === 'number' ? injected.errorCode : ErrorCodes.InternalError;
      throw withResumableLabel(cursor, new CommandError(code, "Failing command via 'failGetMoreAfterCursorCheckout' failpoint"));
    }
    if (cursor instanceof TailableCursor) return tailableGetMore(ctx, cursor, batchSize === 0 ? undefined : batchSize, cmd.maxTimeMS as number | Long | undefined | null);
    ctx.server.counters.opcounters.getmore++;
    cursor.lastUsedMs = ctx.now();
    // A snapshot read's cursor answers with the time it reads at (sessions/snapshot_read.ts).
    const pin = cursor.pin;
    let nextBatch;
    try {
      nextBatch = cursor.nextBatch(batchSize === 0 ? undefined : batchSize);
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

/** query_request_helper::validateGetMoreCollectionName. */
function checkGetMoreCollectionName(name: string): void {
  if (name === '') throw new CommandError('InvalidNamespace', 'Collection names cannot be empty');
  if (name.startsWith('.')) throw new CommandError('InvalidNamespace', `Collection names cannot start with '.': ${name}`);
  if (name.includes('\0')) throw new CommandError('InvalidNamespace', 'Collection names cannot have embedded null characters');
}

/**
 * True when a getMore on `requested` may continue a cursor on `cursorNs`: the same namespace, or
 * the collection of a listIndexes cursor (`<db>.$cmd.listIndexes.<coll>`), which mongod registers
 * under the collection's own namespace.
 */
function sameCursorNamespace(requested: string, cursorNs: string): boolean {
  if (requested === cursorNs) return true;
  const dot = requested.indexOf('.');
  return dot > 0 && cursorNs === `${requested.slice(0, dot)}.$cmd.listIndexes.${requested.slice(dot + 1)}`;
}

/**
 * mongod's validateLSID: a cursor opened in a session continues only in that session (50737
 * without an lsid, 50738 in another), and one opened outside any session not in one (50736).
 */
function checkSession(cursorId: Long, opened: CursorSession | null, lsid: unknown): void {
  const id = sessionIdOf(lsid);
  const current = id === undefined ? null : { id, uid: sessionUid(lsid) };
  if (current !== null && opened === null) {
    throw new CommandError(50736, `Cannot run getMore on cursor ${cursorId.toString()}, which was not created in a session, in session ${describeSession(current)}`);
  }
  if (current === null && opened !== null) {
    throw new CommandError(50737, `Cannot run getMore on cursor ${cursorId.toString()}, which was created in session ${describeSession(opened)}, without an lsid`);
  }
  if (current !== null && opened !== null && !sameBytes(current.id, opened.id)) {
    throw new CommandError(50738, `Cannot run getMore on cursor ${cursorId.toString()}, which was created in session ${describeSession(opened)}, in session ${describeSession(current)}`);
  }
}

/** The `uid` an lsid names, else the digest of no user (a server without authentication). */
function sessionUid(lsid: unknown): Binary {
  const uid = (lsid as Document).uid;
  return uid instanceof Binary ? uid : NO_AUTH_USER_DIGEST;
}

/** A logical session id as mongod prints it: `<id> - <uid> -  - ` (no txnNumber, no txnUUID). */
function describeSession(session: CursorSession): string {
  const hex = Buffer.from(session.id.buffer.subarray(0, session.id.position)).toString('hex');
  const uuid = hex.length === 32 ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : hex;
  const uid = Buffer.from(session.uid.buffer.subarray(0, session.uid.position)).toString('base64');
  return `${uuid} - ${uid} -  - `;
}

function sameBytes(a: Binary, b: Binary): boolean {
  if (a.position !== b.position) return false;
  for (let i = 0; i < a.position; i++) if (a.buffer[i] !== b.buffer[i]) return false;
  return true;
}

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
    // Woken after the turn of the commit (waitable.ts): the commit is over, its events are all there.
    stops.push(
      cursor.subscribe(() => {
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
    );
    // Closed while waiting: by killCursors (237), or by a drop or rename of its collection
    // (`killedBy`, 175: the cursor is then removed by this getMore).
    stops.push(cursor.onClose(() => settle(() => {
      const killedBy = cursor.killedBy;
      if (killedBy !== null) {
        cursors.kill(cursor.id);
        throw killedBy;
      }
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
