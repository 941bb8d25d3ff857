/**
 * Capped collections, as mongod 8.2 keeps them: a collection created with `capped: true`,
 * `size` (bytes of BSON, stored as given since 7.2 — no more rounding to 256) and optionally
 * `max` (documents; 0 or less means no limit, stored as 2147483647). An insert that takes the
 * collection over either bound removes the oldest documents, in natural (insertion) order,
 * until it fits again; a document larger than `size` is refused. Updates and deletes are allowed
 * and evict nothing.
 *
 * The tracker keeps each record's BSON size in insertion order, so that the total and the
 * oldest records are known without a scan. Collection calls it on every insert, update,
 * removal and clear (the `capped` field of `Collection`).
 * Source: mongo/src/mongo/db/catalog/collection_impl.cpp (capped deletes),
 * mongo/src/mongo/db/catalog/collection_options.cpp (adjustCappedMaxDocs).
 */
import { bsonSize } from '../bson/encode.js';
import type { Document } from '../bson/library.js';
import { recordSize, type StoredDocument } from './record.js';
import { CommandError } from '../errors/command_error.js';
import { isNumber, toDouble } from './values/numeric.js';

/** The bounds of a capped collection. */
export interface CappedLimits {
  /** `size`: the most bytes of BSON the documents may take together. */
  maxBytes: number;
  /** `max`: the most documents (2147483647 when unlimited). */
  maxDocs: number;
}

/** The `max` mongod stores for "no document limit". */
export const UNLIMITED_CAPPED_DOCS = 0x7fffffff;

/** What the tracker needs of its collection. */
export interface CappedHost<R> {
  readonly storedCount: number;
  /** Removes `rec`, an eviction (an operation of the insert's write unit). */
  remove(rec: R, cause: 'capped'): boolean;
}

/** Sizes and order of a capped collection's records; evicts the oldest when over a bound. */
export class CappedTracker<R extends StoredDocument> {
  limits: CappedLimits;
  private bytes = 0;
  /** Records in insertion order, with their BSON size. */
  private readonly sizes = new Map<R, number>();

  /** A tracker for an empty collection. */
  constructor(limits: CappedLimits) {
    this.limits = limits;
  }

  /** Total BSON size of the documents. */
  get dataSize(): number {
    return this.bytes;
  }

  /** Refuses a document larger than the whole collection (10334), before anything is stored. */
  checkInsert(doc: Document): void {
    if (bsonSize(doc) > this.limits.maxBytes) throw new CommandError('BSONObjectTooLarge', 'object to insert exceeds cappedMaxSize');
  }

  /** Records a new document, then removes the oldest others until both bounds hold. */
  inserted(host: CappedHost<R>, rec: R): void {
    const size = recordSize(rec);
    this.sizes.set(rec, size);
    this.bytes += size;
    for (const old of this.sizes.keys()) {
      if (this.bytes <= this.limits.maxBytes && host.storedCount <= this.limits.maxDocs) break;
      if (old === rec) break;
      host.remove(old, 'capped');
    }
  }

  /** Notes a document's new size after an update. */
  updated(rec: R): void {
    const old = this.sizes.get(rec);
    if (old === undefined) return;
    const size = recordSize(rec);
    this.sizes.set(rec, size);
    this.bytes += size - old;
  }

  /** Forgets a removed document. */
  removed(rec: R): void {
    const size = this.sizes.get(rec);
    if (size === undefined) return;
    this.sizes.delete(rec);
    this.bytes -= size;
  }

  /** Forgets every document. */
  cleared(): void {
    this.sizes.clear();
    this.bytes = 0;
  }
}

/** The bounds collection options describe (undefined for a collection that is not capped). */
export function cappedLimitsOf(options: Document): CappedLimits | undefined {
  if (options.capped !== true) return undefined;
  const maxDocs = options.max === undefined ? UNLIMITED_CAPPED_DOCS : toDouble(options.max);
  return { maxBytes: isNumber(options.size) ? toDouble(options.size) : 0, maxDocs };
}
