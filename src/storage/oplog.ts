/**
 * The oplog of the one-node replica set (`local.oplog.rs`): committed writes in mongod's entry
 * shape, kept in commit order in a bounded log. `oplogEntry` builds an entry; `Oplog.append`
 * records it; `Oplog.after(ts)` reads the entries after a time (what a tailable cursor on
 * `local.oplog.rs` and change streams read).
 *
 * The change log (change_log.ts), the write path's observer on the replica-set presentation,
 * feeds it: one entry per committed operation (with the commit's cluster time, and the
 * lsid/txnNumber/stmtId of a retryable write), a transaction as one `applyOps` command entry.
 */
import { Long, Timestamp, type Binary, type Document, type UUID } from '../bson/library.js';

/** One committed operation, as the write path describes it. */
export interface OplogWrite {
  /** `i` insert, `u` update, `d` delete, `c` command (DDL), `n` no-op. */
  readonly op: 'i' | 'u' | 'd' | 'c' | 'n';
  /** `db.collection` (`db.$cmd` for a command). */
  readonly ns: string;
  /** The collection's UUID. */
  readonly ui?: UUID | Binary;
  /** The document (insert), the update description (`{$v: 2, diff}`), the `_id` (delete) or the command. */
  readonly o: Document;
  /** The document key of an insert or update. */
  readonly o2?: Document;
  /** The retryable write the operation belongs to. */
  readonly retryable?: { readonly lsid: Document; readonly txnNumber: bigint; readonly stmtId: number };
}

/** The entry format version mongod writes. */
const OPLOG_VERSION = Long.fromNumber(2);
/** The optime "none" a first retryable statement links to. */
const NO_PREV_OPTIME = { ts: new Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) };

/** mongod's oplog entry for `write` committed at `ts` (term `term`, wall time `wallMs`), in its field order. */
export function oplogEntry(write: OplogWrite, ts: Timestamp, term: number, wallMs: number): Document {
  const entry: Document = {};
  if (write.retryable !== undefined) {
    entry.lsid = write.retryable.lsid;
    entry.txnNumber = Long.fromBigInt(write.retryable.txnNumber);
  }
  entry.op = write.op;
  entry.ns = write.ns;
  if (write.ui !== undefined) entry.ui = write.ui;
  entry.o = write.o;
  if (write.o2 !== undefined) entry.o2 = write.o2;
  if (write.retryable !== undefined) entry.stmtId = write.retryable.stmtId;
  entry.ts = ts;
  entry.t = Long.fromNumber(term);
  entry.v = OPLOG_VERSION;
  entry.wall = new Date(wallMs);
  if (write.retryable !== undefined) entry.prevOpTime = NO_PREV_OPTIME;
  return entry;
}

/** The default bound on entries kept (mongod bounds its oplog by size; the oldest go first). */
export const OPLOG_MAX_ENTRIES = 100_000;

/** The committed entries, oldest first. */
export class Oplog {
  private readonly entries: Document[] = [];
  private droppedCount = 0;

  constructor(private readonly maxEntries = OPLOG_MAX_ENTRIES) {}

  /**
   * Records an entry; its `ts` must not be earlier than any recorded one (the operations of one
   * write unit, an insert batch, share its commit time).
   */
  append(entry: Document): void {
    const last = this.entries[this.entries.length - 1];
    if (last !== undefined && (entry.ts as Timestamp).compare(last.ts as Timestamp) < 0) {
      throw new Error(`oplog entries must be appended in commit order: ${String(entry.ts)} after ${String(last.ts)}`);
    }
    this.entries.push(entry);
    if (this.entries.length > this.maxEntries) {
      const excess = this.entries.length - this.maxEntries;
      this.entries.splice(0, excess);
      this.droppedCount += excess;
    }
  }

  /** The entries committed after `ts` (all of them when undefined), oldest first. */
  *after(ts: Timestamp | undefined): IterableIterator<Document> {
    for (const entry of this.entries) if (ts === undefined || (entry.ts as Timestamp).compare(ts) > 0) yield entry;
  }

  /** The entries kept, oldest first (a tailable cursor reads them by position). */
  get all(): readonly Document[] {
    return this.entries;
  }

  /** Entries dropped from the front so far (the position of `all[0]` in the whole history). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.entries.length;
  }
}

const oplogs = new WeakMap<object, Oplog>();

/** The oplog of `server` (created empty on first use). */
export function oplogOf(server: object): Oplog {
  let oplog = oplogs.get(server);
  if (oplog === undefined) {
    oplog = new Oplog();
    oplogs.set(server, oplog);
  }
  return oplog;
}
