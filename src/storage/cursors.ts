/**
 * Server-side cursors: an id, the namespace, and a lazy iterator of result documents that
 * `getMore` continues. Documents are produced on demand, so a document that expires (Cosmos TTL)
 * between two batches is not returned by the later one. Idle cursors time out.
 */
import { Long, type Binary, type Document, type Timestamp } from '../bson/library.js';
import { bsonSize } from '../bson/encode.js';
import { documentFields, replyDocument, type StoredDocument } from './record.js';
import { projectorFields } from './projection/compile_projection.js';
import { CommandError } from '../errors/command_error.js';

/** mongod's default first batch: 101 documents. */
export const DEFAULT_FIRST_BATCH_DOCS = 101;
/** A batch stops growing at 16 MiB of documents (mongod's reply limit). */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** Default idle timeout (`cursorTimeoutMillis`): 10 minutes. */
export const DEFAULT_CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A cursor source that can re-check a document it produced before a later batch hands it out
 * (the cursor reads one document ahead; that document may have expired or been deleted since).
 */
export interface RevalidatingIterator extends Iterator<Document> {
  stillValid?(doc: Document): boolean;
}

/** A document a cursor will hand out and the record it was produced from (if any). */
export interface SourcedDocument {
  readonly doc: Document;
  readonly rec: StoredDocument | undefined;
}

/**
 * A cursor source over items that each yield a document produced from a record (or from none):
 * the cursor reads one document ahead, and that document's record may expire (Cosmos TTL) or be
 * deleted before the getMore that sends it, so `stillValid` re-checks the record of the document
 * read last. A plain iterator: no generator layers, nothing allocated per item.
 */
export class RevalidatingSource<T> implements RevalidatingIterator {
  private lastRec: StoredDocument | undefined;
  private lastDoc: Document | undefined;

  /** The documents `docOf` makes of `items`, each re-checked through `recOf`'s record by `isLive`. */
  constructor(
    private readonly items: Iterator<T>,
    private readonly docOf: (item: T) => Document,
    private readonly recOf: (item: T) => StoredDocument | undefined,
    private readonly isLive: (rec: StoredDocument) => boolean,
  ) {}

  /** The next document. */
  next(): IteratorResult<Document> {
    const step = this.items.next();
    if (step.done) return { done: true, value: undefined };
    const doc = this.docOf(step.value);
    this.lastRec = this.recOf(step.value);
    this.lastDoc = doc;
    return { done: false, value: doc };
  }

  /** False when `doc` is the one read ahead and its record expired or went away since. */
  stillValid(doc: Document): boolean {
    return doc !== this.lastDoc || this.lastRec === undefined || this.isLive(this.lastRec);
  }

  /** Stops the underlying items. */
  return(): IteratorResult<Document> {
    this.items.return?.();
    return { done: true, value: undefined };
  }
}

/** A re-checking source over documents that name their records (aggregate, getRange). */
export function revalidatingSource(items: Iterable<SourcedDocument>, isLive: (rec: StoredDocument) => boolean): RevalidatingSource<SourcedDocument> {
  return new RevalidatingSource(items[Symbol.iterator](), (item) => item.doc, (item) => item.rec, isLive);
}

/** A re-checking source over records (find): each record's document, projected by `project` when given. */
export function recordSource(
  records: Iterator<StoredDocument>,
  project: ((doc: Document) => Document) | null,
  isLive: (rec: StoredDocument) => boolean,
): RevalidatingSource<StoredDocument> {
  return new RevalidatingSource(records, recordDocument(project), (rec) => rec, isLive);
}

/** The logical session a cursor was opened in: a getMore must come from the same one. */
export interface CursorSession {
  /** The lsid's `id` (a UUID). */
  readonly id: Binary;
  /** The digest of the user the session belongs to. */
  readonly uid: Binary;
}

/**
 * Documents in natural order from a record: `project` applied when given (reading only the
 * fields it needs), else the stored document as a reply carries it.
 */
export function recordDocument(project: ((doc: Document) => Document) | null): (rec: StoredDocument) => Document {
  if (!project) return replyDocument;
  const fields = projectorFields(project);
  return (rec) => project(documentFields(rec, fields));
}

/**
 * What a cursor that reads in a snapshot (readConcern snapshot outside a transaction) does around
 * each read of its source: `enter` brings the collections to the snapshot, `leave` ends the read,
 * `end` releases the snapshot when the cursor closes (storage/write/snapshots.ts).
 */
export interface CursorPin {
  /** The cluster time the cursor reads at. */
  readonly atClusterTime: Timestamp;
  enter(): void;
  leave(): void;
  end(): void;
}

/** An open cursor. */
export class Cursor {
  /** The id getMore uses (0 until the cursor manager registers the cursor). */
  id: Long;
  readonly ns: string;
  /**
   * The authenticated user who opened it (`user@db`; null: nobody was): only a client
   * authenticated as that user may getMore it, as mongod's isCoauthorizedWith.
   */
  owner: string | null = null;
  readonly noTimeout: boolean;
  lastUsedMs: number;
  /** The session of the command that opened it (null: none), which its getMores must share. */
  session: CursorSession | null = null;
  /**
   * Set when the cursor was killed by a change of its collection (a drop, a rename): it stays
   * registered, and the next getMore answers this error (175 QueryPlanKilled) and removes it.
   */
  killedBy: CommandError | null = null;
  /** A drop or rename of its collection kills it (a change stream sees the drop instead). */
  readonly diesWithCollection: boolean = true;
  private source: RevalidatingIterator;
  private pending: Document | undefined;
  private done = false;
  /** Set for a cursor reading in a snapshot: its reads run with the snapshot applied. */
  pin: CursorPin | null = null;

  /** A cursor over `source`. */
  constructor(id: Long, ns: string, source: Iterator<Document>, nowMs: number, noTimeout = false) {
    this.id = id;
    this.ns = ns;
    this.source = source;
    this.lastUsedMs = nowMs;
    this.noTimeout = noTimeout;
  }

  /**
   * Reads every document still to come now, so that later batches no longer read the collections
   * (a snapshot read's cursor: the snapshot is applied only while its command runs).
   */
  materialize(): void {
    const docs: Document[] = [];
    if (this.pending !== undefined) docs.push(this.pending);
    this.pending = undefined;
    if (!this.done) for (let next = this.source.next(); !next.done; next = this.source.next()) docs.push(next.value);
    this.source.return?.();
    this.source = docs[Symbol.iterator]();
    this.done = false;
  }

  /** True once every document has been handed out. */
  get exhausted(): boolean {
    if (this.pending !== undefined) return false;
    if (this.done) return true;
    const pin = this.pin;
    if (pin === null) return this.readAhead();
    pin.enter();
    try {
      return this.readAhead();
    } finally {
      pin.leave();
    }
  }

  /** Reads one document ahead: true when there is none. */
  private readAhead(): boolean {
    const next = this.source.next();
    if (next.done) {
      this.done = true;
      return true;
    }
    this.pending = next.value;
    return false;
  }

  /** Up to `maxDocs` documents (unlimited when undefined) within MAX_BATCH_BYTES. */
  nextBatch(maxDocs: number | undefined): Document[] {
    const pin = this.pin;
    if (pin === null) return this.readBatch(maxDocs);
    pin.enter();
    try {
      return this.readBatch(maxDocs);
    } finally {
      pin.leave();
    }
  }

  private readBatch(maxDocs: number | undefined): Document[] {
    const batch: Document[] = [];
    let bytes = 0;
    while (maxDocs === undefined || batch.length < maxDocs) {
      let doc: Document;
      if (this.pending !== undefined) {
        doc = this.pending;
        this.pending = undefined;
        if (this.source.stillValid && !this.source.stillValid(doc)) continue;
      } else {
        if (this.done) break;
        const next = this.source.next();
        if (next.done) {
          this.done = true;
          break;
        }
        doc = next.value;
      }
      const size = bsonSize(doc);
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) {
        this.pending = doc;
        break;
      }
      bytes += size;
      batch.push(doc);
    }
    return batch;
  }

  /** Stops the underlying iterator. */
  close(): void {
    this.done = true;
    this.pending = undefined;
    const pin = this.pin;
    this.pin = null;
    try {
      this.source.return?.();
    } finally {
      pin?.end();
    }
  }
}

/** No documents: the source of a cursor that produces its batches itself. */
const NO_DOCUMENTS: Iterator<Document> = { next: () => ({ done: true, value: undefined }) };

/**
 * A tailable cursor (a change stream, a tailing read of the oplog): a batch hands out what is
 * there now; the cursor stays open for what later commits bring. `getMore` with awaitData waits
 * for a commit (`subscribe`) instead of polling. Subclasses produce the batches.
 */
export abstract class TailableCursor extends Cursor {
  /** A getMore may wait for more (awaitData). */
  readonly awaitData: boolean;
  /** Set once the cursor is closed (killCursors, its end); a waiting getMore is woken. */
  closed = false;
  override readonly diesWithCollection: boolean = false;
  private readonly closeListeners = new Set<() => void>();

  /** A tailable cursor on `ns`. */
  constructor(ns: string, nowMs: number, awaitData = true, noTimeout = false) {
    super(Long.ZERO, ns, NO_DOCUMENTS, nowMs, noTimeout);
    this.awaitData = awaitData;
  }

  /** Calls `wake` when a commit may have brought more; returns the unsubscribe. */
  abstract subscribe(wake: () => void): () => void;

  /** The batch available now: up to `maxDocs` documents (unlimited when undefined). */
  abstract override nextBatch(maxDocs: number | undefined): Document[];

  /** True when the cursor has ended (an invalidate was handed out): it closes after this batch. */
  abstract override get exhausted(): boolean;

  /** Fields the cursor adds to each batch's reply (a change stream's `postBatchResumeToken`). */
  replyFields(): Document {
    return {};
  }

  /** Calls `listener` when the cursor is closed; returns the unsubscribe. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  override close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.closeListeners]) listener();
  }
}

/** The cursors of one server. */
export class CursorManager {
  private readonly cursors = new Map<bigint, Cursor>();
  private nextId = BigInt(Math.floor(Math.random() * 2 ** 40)) + 1n;
  timeoutMs = DEFAULT_CURSOR_TIMEOUT_MS;

  /** Registers a cursor over `source` and returns it. */
  open(ns: string, source: Iterator<Document>, nowMs: number, noTimeout = false): Cursor {
    const cursor = new Cursor(Long.ZERO, ns, source, nowMs, noTimeout);
    this.adopt(cursor);
    return cursor;
  }

  /**
   * Cuts the first batch of a result: the whole result when it fits (no cursor is registered,
   * the reply's id is 0), else the first `maxDocs` documents and a registered cursor for the
   * rest. `singleBatch` closes the source after the first batch.
   */
  firstBatch(ns: string, source: Iterator<Document>, nowMs: number, options: { maxDocs: number; singleBatch: boolean; noTimeout: boolean }): { batch: Document[]; id: Long } {
    const cursor = new Cursor(Long.ZERO, ns, source, nowMs, options.noTimeout);
    const batch = cursor.nextBatch(options.maxDocs);
    // A first batch of 0 documents reads nothing: the cursor stays open, even over no documents.
    if (options.singleBatch || (options.maxDocs !== 0 && cursor.exhausted)) {
      cursor.close();
      return { batch, id: Long.ZERO };
    }
    return { batch, id: this.adopt(cursor) };
  }

  /** Registers a cursor made elsewhere (a tailable cursor) and returns its new id. */
  register(cursor: Cursor): Long {
    return this.adopt(cursor);
  }

  /** The open cursors (`$currentOp`'s idle cursors). */
  list(): Cursor[] {
    return [...this.cursors.values()];
  }

  /** Gives `cursor` a fresh id and keeps it for getMore. */
  private adopt(cursor: Cursor): Long {
    const id = this.nextId;
    this.nextId += BigInt(1 + Math.floor(Math.random() * 1000));
    cursor.id = Long.fromBigInt(id);
    this.cursors.set(id, cursor);
    return cursor.id;
  }

  /** The open cursor `id`, if any, without using it (no timeout reset, no error). */
  peek(id: Long): Cursor | undefined {
    return this.cursors.get(id.toBigInt());
  }

  /** The cursor `id`; throws 43 CursorNotFound. */
  get(id: Long, nowMs: number): Cursor {
    this.expire(nowMs);
    const cursor = this.cursors.get(id.toBigInt());
    if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id.toString()} not found`);
    return cursor;
  }

  /** Removes and closes a cursor; false when unknown. */
  kill(id: Long): boolean {
    const key = id.toBigInt();
    const cursor = this.cursors.get(key);
    if (!cursor) return false;
    cursor.close();
    this.cursors.delete(key);
    return true;
  }

  /**
   * Kills every cursor on `ns` (its collection dropped, or renamed: `reason` says which), but
   * change streams (which see the drop and end themselves with an invalidate). As in mongod, a
   * killed cursor stays registered: killCursors still finds it, and the next getMore answers 175
   * QueryPlanKilled (`killedBy`) and removes it.
   */
  killNamespace(ns: string, reason: 'collection dropped' | 'collection renamed' = 'collection dropped'): void {
    for (const cursor of this.cursors.values()) {
      if (cursor.ns === ns && cursor.diesWithCollection && cursor.killedBy === null) {
        cursor.killedBy = new CommandError('QueryPlanKilled', `Executor error during getMore :: caused by :: ${reason}`);
        cursor.close();
      }
    }
  }

  /** Closes idle cursors past the timeout. */
  expire(nowMs: number): number {
    let n = 0;
    for (const [key, cursor] of this.cursors) {
      if (!cursor.noTimeout && nowMs - cursor.lastUsedMs > this.timeoutMs) {
        cursor.close();
        this.cursors.delete(key);
        n++;
      }
    }
    return n;
  }

  /** Number of open cursors. */
  get size(): number {
    return this.cursors.size;
  }

  /** Closes everything. */
  closeAll(): void {
    for (const cursor of this.cursors.values()) cursor.close();
    this.cursors.clear();
  }
}
