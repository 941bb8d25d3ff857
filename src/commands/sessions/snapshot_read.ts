/**
 * Snapshot reads outside transactions (`readConcern: {level: 'snapshot'}`, with or without
 * `atClusterTime`), as mongod 8.2 runs them on a replica set: `find`, `aggregate` and `distinct`
 * read one point in time, a `ReadView` of the catalog's snapshot store applied while they read
 * (storage/write/snapshots.ts); the reply carries that time as `atClusterTime` (in `cursor` for a
 * cursor reply, at the top of distinct's); a cursor left open reads the rest of its result in the
 * snapshot before the command ends (`Cursor.materialize`), and its getMores answer the same time
 * (`Cursor.pin`). Asking for a snapshot read makes the store retain history for
 * `minSnapshotHistoryWindowInSeconds`, so that a snapshot session's later reads at the time of its
 * first one see that time's data. Other commands refuse snapshot outside a transaction (72).
 */
import type { Document, Timestamp } from '../../bson/library.js';
import { Long } from '../../bson/library.js';
import { isDocument } from '../../storage/values/paths.js';
import type { CursorPin } from '../../storage/cursors.js';
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
  // A snapshot session's driver sends its read concern on getMore too; the cursor already holds
  // its snapshot's result (materialized, pinned), so its getMores run as they are.
  if (def.name === 'getMore') return def.run(ctx, body);
  const rc = parseReadConcern(def.name, body.readConcern)!;
  // The command's support is checked before the topology (mongod's order).
  if (!SNAPSHOT_READ_COMMANDS.has(def.name)) throw readConcernNotSupported(def.name, rc, 'read concern snapshot not supported');
  checkReadConcernTopology(rc, ctx.server.settings.replSetName);
  const store = serverSnapshots(ctx);
  for (let busy = store.busy; busy !== null; busy = store.busy) await busy;
  store.settle();
  const at = rc.atClusterTime;
  // What left the window is freed first: a time it held is too old now.
  store.prune();
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
  const cursor = reply.cursor;
  try {
    if (!isDocument(cursor)) return { ...reply, atClusterTime: view.ts };
    const id = cursor.id;
    const open = id instanceof Long && !id.isZero() ? ctx.server.cursors.peek(id) : undefined;
    if (open !== undefined) {
      // The rest is read now, in the snapshot: a scan left half-way would not survive the head
      // being put back and applied again (undo and redo move records within the table).
      try {
        open.materialize();
      } catch (err) {
        ctx.server.cursors.kill(open.id);
        throw err;
      }
      open.pin = pinOf(view.ts);
    }
    return { ...reply, cursor: { ...cursor, atClusterTime: view.ts } };
  } finally {
    store.release(view);
    store.close(view);
  }
}

/** The pin of a snapshot read's cursor: its getMores answer the time it read at. */
function pinOf(atClusterTime: Timestamp): CursorPin {
  return { atClusterTime, enter: NOTHING, leave: NOTHING, end: NOTHING };
}

const NOTHING = (): void => undefined;
