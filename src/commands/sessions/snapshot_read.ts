/**
 * Snapshot reads outside transactions (`readConcern: {level: 'snapshot'}`, with or without
 * `atClusterTime`), as mongod 8.2 runs them on a replica set: `find`, `aggregate` and `distinct`
 * read one point in time, a `ReadView` of the catalog's snapshot store applied while they read
 * (storage/write/snapshots.ts); the reply carries that time as `atClusterTime` (in `cursor` for a
 * cursor reply, at the top of distinct's), and a cursor left open keeps the view for its getMores
 * (`Cursor.pin`) until it closes. Asking for a snapshot read makes the store retain history for
 * `minSnapshotHistoryWindowInSeconds`, so that a snapshot session's later reads at the time of its
 * first one see that time's data. Other commands refuse snapshot outside a transaction (72).
 */
import type { Document } from '../../bson/library.js';
import { Long } from '../../bson/library.js';
import { isDocument } from '../../storage/values/paths.js';
import type { CursorPin } from '../../storage/cursors.js';
import type { ReadView, SnapshotStore } from '../../storage/write/snapshots.js';
import { checkReadConcernTopology, parseReadConcern, readConcernNotSupported } from '../read_write_concern.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { checkClusterTime, serverSnapshots } from './transaction_statement.js';

/** The commands that read in a snapshot outside a transaction (mongod's snapshot-capable reads). */
const SNAPSHOT_READ_COMMANDS: ReadonlySet<string> = new Set(['aggregate', 'distinct', 'find']);

/** True when `body` asks for a snapshot read outside a transaction. */
export function isSnapshotRead(body: Document): boolean {
  const rc = body.readConcern;
  return body.autocommit === undefined && isDocument(rc) && rc.level === 'snapshot';
}

/** Runs `def` on `body` as a snapshot read (see module comment). */
export async function runSnapshotRead(ctx: CommandContext, def: CommandDefinition, body: Document): Promise<Document> {
  const rc = parseReadConcern(def.name, body.readConcern)!;
  checkReadConcernTopology(rc, ctx.server.settings.replSetName);
  if (!SNAPSHOT_READ_COMMANDS.has(def.name)) throw readConcernNotSupported(def.name, rc, 'read concern snapshot not supported');
  const store = serverSnapshots(ctx);
  for (let busy = store.busy; busy !== null; busy = store.busy) await busy;
  store.settle();
  const at = rc.atClusterTime;
  if (at !== undefined) checkClusterTime(ctx, store, at);
  store.retain();
  const view = store.open(false, at);
  let reply: Document;
  try {
    store.apply(view);
    reply = await def.run(ctx, body);
  } catch (err) {
    store.release(view);
    store.close(view);
    throw err;
  }
  store.release(view);
  const cursor = reply.cursor;
  if (isDocument(cursor)) {
    const id = cursor.id;
    const open = id instanceof Long && !id.isZero() ? ctx.server.cursors.peek(id) : undefined;
    if (open !== undefined) open.pin = pinOf(store, view);
    else store.close(view);
    return { ...reply, cursor: { ...cursor, atClusterTime: view.ts } };
  }
  store.close(view);
  return { ...reply, atClusterTime: view.ts };
}

/** The pin of a cursor that reads in `view`. */
function pinOf(store: SnapshotStore, view: ReadView): CursorPin {
  return {
    atClusterTime: view.ts,
    enter: () => store.apply(view),
    leave: () => store.release(view),
    end: () => store.close(view),
  };
}
