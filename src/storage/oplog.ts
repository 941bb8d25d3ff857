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

/** Dropped entries kept at the front before they are cut off. */
const COMPACT_AT = 1024;

/** The committed entries, oldest first. */
export class Oplog {
  /** The kept entries are `entries[head..]`; the dropped front is cut off in chunks (O(1) per append). */
  private readonly entries: Document[] = [];
  private head = 0;
  private droppedCount = 0;

  constructor(private readonly maxEntries = OPLOG_MAX_ENTRIES) {}

  /**
   * Records an entry; its `ts` must not be earlier than any recorded one (the operations of one
   * write unit, an insert batch, share its commit time).
   */
  append(entry: Document): void {
    const last = this.entries.length > this.head ? this.entries[this.entries.length - 1] : undefined;
    if (last !== undefined && (entry.ts as Timestamp).compare(last.ts as Timestamp) < 0) {
      throw new Error(`oplog entries must be appended in commit order: ${String(entry.ts)} after ${String(last.ts)}`);
    }
    this.entries.push(entry);
    const excess = this.entries.length - this.head - this.maxEntries;
    if (excess > 0) {
      this.head += excess;
      this.droppedCount += excess;
      // Every COMPACT_AT drops, or once the dropped front is as long as what is kept (a small oplog).
      if (this.head >= COMPACT_AT || this.head * 2 >= this.entries.length) this.compact();
    }
  }

  /** Cuts the dropped entries off the front. */
  private compact(): void {
    if (this.head === 0) return;
    this.entries.splice(0, this.head);
    this.head = 0;
  }

  /** The entry at `position` in the whole history, if kept. */
  at(position: number): Document | undefined {
    return position < this.droppedCount ? undefined : this.entries[this.head + position - this.droppedCount];
  }

  /** The position after the newest entry (the whole history's length). */
  get end(): number {
    return this.droppedCount + this.entries.length - this.head;
  }

  /** The entries committed after `ts` (all of them when undefined), oldest first. */
  *after(ts: Timestamp | undefined): IterableIterator<Document> {
    for (const entry of this.all) if (ts === undefined || (entry.ts as Timestamp).compare(ts) > 0) yield entry;
  }

  /** The entries kept, oldest first (a tailable cursor reads them by position: `at`). */
  get all(): readonly Document[] {
    this.compact();
    return this.entries;
  }

  /** Entries dropped from the front so far (the position of `all[0]` in the whole history). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Number of entries kept. */
  get size(): number {
    return this.entries.length - this.head;
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
