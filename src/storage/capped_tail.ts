/**
 * A tailable cursor on a capped collection (`find` with `tailable: true`), as mongod's tailable
 * collection scan (src/mongo/db/exec/collection_scan.cpp):
 *
 * - it reads the collection in natural (insertion) order and remembers the last record it read
 *   (matched or not: a filter that matches nothing still moves it on);
 * - at the end of the records it stays open; the next batch resumes after that record, so that
 *   a getMore returns the documents inserted since, in insertion order;
 * - when that record is gone (a capped eviction overwrote the position, or a delete), the cursor
 *   dies with 136 CappedPositionLost;
 * - a cursor that reached the end having read no record at all (an empty collection) is dead: it
 *   has no position to tail from, and closes (id 0), as mongod's EOF without a last-seen record;
 * - `skip` and `limit` count over the cursor's life: once `limit` documents went out it returns
 *   empty batches, staying open;
 * - with awaitData, a getMore with nothing to return waits for the collection's insert signal
 *   (waitable.ts), never polling.
 */
import type { Document } from '../bson/library.js';
import { bsonSize } from '../bson/encode.js';
import { CommandError } from '../errors/command_error.js';
import type { Collection } from './collection.js';
import { MAX_BATCH_BYTES, TailableCursor } from './cursors.js';
import type { StoredDocument } from './record.js';
import type { Waitable } from './waitable.js';

/** What a tailable read of a capped collection applies. */
export interface CappedTailSpec {
  readonly coll: Collection;
  /** The compiled filter, on a record. */
  readonly matches: (rec: StoredDocument) => boolean;
  /** The reply document of a matching record (projected). */
  readonly docOf: (rec: StoredDocument) => Document;
  /** Matching documents to pass over first (0: none). */
  readonly skip: number;
  /** The most documents the cursor returns in all (0: no limit). */
  readonly limit: number;
  readonly awaitData: boolean;
  readonly noTimeout: boolean;
  /** The collection's insert signal (`collectionSignals(catalog).of(coll)`). */
  readonly inserts: Waitable;
  /** The server's clock (visibility of expiring documents). */
  readonly now: () => number;
}

/** A tailable cursor on a capped collection (see module comment). */
export class CappedTailCursor extends TailableCursor {
  override readonly diesWithCollection: boolean = true;
  /** The last record read (null: none yet, the next read starts at the first record). */
  private lastSeen: StoredDocument | null = null;
  /** Reached the end without reading any record: closed for good. */
  private dead = false;
  private toSkip: number;
  private returned = 0;
  /** A document read but left for the next batch (it did not fit in MAX_BATCH_BYTES). */
  private held: Document | undefined;

  /** A tailable cursor on `spec.coll` (namespace `ns`), opened at `nowMs`. */
  constructor(
    ns: string,
    nowMs: number,
    private readonly spec: CappedTailSpec,
  ) {
    super(ns, nowMs, spec.awaitData, spec.noTimeout);
    this.toSkip = spec.skip;
  }

  override subscribe(wake: () => void): () => void {
    return this.spec.inserts.subscribe(wake);
  }

  /** True once the cursor is dead (no position to tail from): it closes after this batch. */
  override get exhausted(): boolean {
    return this.dead && this.held === undefined;
  }

  /**
   * The documents inserted after the last record read, up to `maxDocs` (unlimited when
   * undefined) within MAX_BATCH_BYTES. Throws 136 CappedPositionLost when that record is gone.
   */
  override nextBatch(maxDocs: number | undefined): Document[] {
    const batch: Document[] = [];
    if (this.closed || this.dead) return batch;
    const { limit } = this.spec;
    let bytes = 0;
    if (this.held !== undefined) {
      batch.push(this.held);
      bytes = bsonSize(this.held);
      this.held = undefined;
    }
    const full = (): boolean => (maxDocs !== undefined && batch.length >= maxDocs) || (limit > 0 && this.returned >= limit);
    if (full()) return batch;
    const records = this.spec.coll.recordsAfter(this.lastSeen);
    if (records === undefined) {
      throw new CommandError(
        'CappedPositionLost',
        `Executor error during getMore :: caused by :: CollectionScan died due to position in capped collection being deleted. Last seen record id: RecordId(${this.lastSeen!.seq ?? 0})`,
      );
    }
    const { coll, matches, docOf, now } = this.spec;
    for (const rec of records) {
      this.lastSeen = rec;
      if (!coll.isVisible(rec, now()) || !matches(rec)) continue;
      if (this.toSkip > 0) {
        this.toSkip--;
        continue;
      }
      const doc = docOf(rec);
      this.returned++;
      const size = bsonSize(doc);
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) {
        this.held = doc;
        return batch;
      }
      bytes += size;
      batch.push(doc);
      if (full()) return batch;
    }
    if (this.lastSeen === null) this.dead = true;
    return batch;
  }
}
