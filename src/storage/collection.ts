/**
 * One collection: documents in natural (insertion) order keyed by their canonical `_id`, the
 * secondary indexes kept in step with every write, the visibility check through which the TTL
 * engine hides expired documents, and the write path (`write/write_unit.ts`) to which every
 * change is reported as an operation of the open write unit. Documents are kept in their stored form (their
 * BSON bytes, made and read by record_format.ts: README, "How documents are stored"); storage never
 * sees sockets or replies.
 */
import { MAX_BSON_OBJECT_BYTES, ObjectId, Timestamp, UUID, type Document } from '../bson/library.js';
import { decodeStored, encodeStored, patchStored, storedSize, storedTime } from './record_format.js';
import { bsonSize } from '../bson/encode.js';
import { BsonRecord, documentFields, recordSize, type StoredDocument } from './record.js';
import { CommandError } from '../errors/command_error.js';
import { formatValue } from './values/format.js';
import { CappedTracker, cappedLimitsOf } from './capped.js';
import { Index, type IndexKeys } from './indexes/index.js';
import { collectionKindOf, type CollectionKind } from './timeseries/kind.js';
import { hashOf, RecordTable, type Keying, storedIdHasKey, storedIdKeyHash } from './record_table.js';
import type { Collator } from './values/collator.js';
import { keyString } from './values/key_string.js';
import { bsonTypeOf } from './values/bson_type.js';
import { addTopLevelField, assign } from './values/paths.js';
import { DETACHED_WRITES, writeConflict, type Displaced, type WritePath } from './write/write_unit.js';
import type { DeleteCause } from './write/observers.js';

/** How the record table reads a record's key: a `BsonRecord` reads it from its bytes. */
const RECORD_KEYING: Keying<StoredDocument> = {
  hashOf: (rec) => (rec.bson === undefined ? hashOf(rec.id) : storedIdKeyHash(rec.bson)),
  hasKey: (rec, key) => (rec.bson === undefined ? rec.id === key : storedIdHasKey(rec.bson, key)),
};

/**
 * How the TTL engine hides expired documents: false when `rec` has expired and must be invisible
 * to every read and write at `nowMs`. (What follows a write is told to the write path's
 * observers, `write/observers.ts`.)
 */
export type VisibilityCheck = (rec: StoredDocument, nowMs: number) => boolean;

/**
 * How a collection with its own row model stores writes: versioned collections
 * (`src/storage/versioned/`), whose records are rows of versioned columns and whose `doc` is
 * derived at read time. Ordinary collections have none and store documents as given.
 */
export interface RowModel {
  /** The record holding a newly inserted document (already checked and `_id`-first). */
  create(id: string, doc: Document, nowMs: number): StoredDocument;
  /** Stores the modification of `rec` into `next` (same `_id`) made at `nowMs`. */
  modify(rec: StoredDocument, next: Document, nowMs: number): void;
  /** The record of `rec`'s row for this collection (a collection moved to another database). */
  adopt(rec: StoredDocument): StoredDocument;
  /** Throws when a secondary index `spec` cannot be built on this collection. */
  checkIndex(spec: Document): void;
}

/** The one field the `_id_` index reads (`documentFields`). */
const ID_FIELDS: readonly string[] = ['_id'];

/** The keys of a document in a collection without secondary indexes (shared, never written). */
const NO_INDEX_KEYS: IndexKeys[] = [];
/** `Collection.greatestId` before the first insert. */
const NO_ID_YET: unique symbol = Symbol('no _id yet');

/** The `_id` index spec every collection has. */
export const ID_INDEX_SPEC: Document = Object.freeze({ v: 2, key: { _id: 1 }, name: '_id_' });

/** A collection of documents. */
export class Collection {
  readonly db: string;
  name: string;
  readonly uuid = new UUID();
  /** Options given to `create` (shown by listCollections). */
  options: Document;
  private readonly records = new RecordTable<StoredDocument>(RECORD_KEYING);
  private readonly secondary: Index[] = [];
  /**
   * The top-level fields `remove` decodes to find a document's index entries, without and with
   * `_id` (read when `_id_` keeps entries); null: the whole document. Reset when indexes change.
   */
  private removalFields: [readonly string[] | null, readonly string[] | null] | null = null;
  /**
   * The ordered `_id_` index (point lookups by `_id` use `records`; ranges and sorts use this).
   * It has the collection's default collation, under which `_id`s are unique. Without one, its
   * entries are deferred until a read needs them (`Index.defer`), and kept from then on.
   */
  readonly idIndex: Index;
  /** The next record sequence number. */
  private nextSeq = 1;
  /** The TTL engine's check (`visibility`'s setter); null: nothing expires. */
  private expiryCheck: VisibilityCheck | null = null;
  /** While a snapshot view is applied: false for the records committed after it (write/snapshots.ts); null otherwise. */
  private viewCheck: ((rec: StoredDocument) => boolean) | null = null;
  /** The two composed (null: every stored record is visible). */
  private visibleCheck: VisibilityCheck | null = null;
  /**
   * While a snapshot view's records are put back (`restoreRecord`): told of each record hidden
   * by the view that held a key a restored record needs, after taking it out of the collection.
   */
  private displacer: Displaced | null = null;
  /** Where every change is recorded: the catalog's write path (none outside a catalog). */
  writes: WritePath = DETACHED_WRITES;
  /** The row model of a versioned collection (installed by the TTL engine); null otherwise. */
  rowModel: RowModel | null = null;
  /** The bounds and record sizes of a capped collection (`capped.ts`); null otherwise. */
  readonly capped: CappedTracker<StoredDocument> | null;
  /** What a time-series or clustered collection adds (`timeseries/kind.ts`); null otherwise. */
  readonly kind: CollectionKind | null;

  /**
   * While the `_id_` index keeps no entries: the greatest `_id` of the records entered so far
   * (NO_ID_YET: none), kept by `enter`, which every record passes. No stored `_id` orders after
   * it; removals only leave it higher than needed.
   */
  private greatestId: unknown = NO_ID_YET;

  /** An empty collection. */
  constructor(db: string, name: string, options: Document = {}) {
    this.db = db;
    this.name = name;
    this.options = options;
    const collation = options.collation as Document | undefined;
    this.idIndex = new Index(collation ? { ...ID_INDEX_SPEC, collation } : ID_INDEX_SPEC);
    if (!collation) this.idIndex.defer(() => this.idEntries());
    const limits = cappedLimitsOf(options);
    this.capped = limits ? new CappedTracker(limits) : null;
    this.kind = collectionKindOf(options);
  }

  /** The default collation given at `create`, spelled out (null: simple). */
  get defaultCollation(): Document | null {
    return this.idIndex.collation;
  }

  /** The collator of the default collation (null: simple); shared, so not for `Collator.key`. */
  get defaultCollator(): Collator | null {
    return this.idIndex.collator;
  }

  /** `db.name`. */
  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** Number of stored documents (expired ones included until they are removed). */
  get storedCount(): number {
    return this.records.size;
  }

  /** True when `rec` is still stored (not removed or replaced) and readable at `nowMs`. */
  isLive(rec: StoredDocument, nowMs: number): boolean {
    return this.records.hasRecord(rec) && this.isVisible(rec, nowMs);
  }

  /**
   * The visibility check every read asks (null: every stored record is visible): the one the TTL
   * engine installs (the setter), composed with the snapshot view applied now, if any (`hideWhile`).
   */
  get visibility(): VisibilityCheck | null {
    return this.visibleCheck;
  }

  set visibility(check: VisibilityCheck | null) {
    this.expiryCheck = check;
    this.composeVisibility();
  }

  /**
   * While a snapshot view is applied (write/snapshots.ts): `hidden` answers false for the records
   * the view must not see (committed after it), which stay stored and indexed; null ends it.
   */
  hideWhile(hidden: ((rec: StoredDocument) => boolean) | null): void {
    this.viewCheck = hidden;
    this.composeVisibility();
  }

  private composeVisibility(): void {
    const expiry = this.expiryCheck;
    const view = this.viewCheck;
    this.visibleCheck = view === null ? expiry : expiry === null ? (rec) => view(rec) : (rec, nowMs) => view(rec) && expiry(rec, nowMs);
  }

  /** True when `rec` is readable at `nowMs`. */
  isVisible(rec: StoredDocument, nowMs: number): boolean {
    return this.visibleCheck ? this.visibleCheck(rec, nowMs) : true;
  }

  /**
   * What a write does with a holder of a key it needs that no read sees (`isVisible` false): one
   * hidden by the snapshot view applied now is a newer commit, a write-write conflict (112), or,
   * while the view's records are put back, taken out for the time the view is applied
   * (`displacer`); an expired one is removed.
   */
  private clearHiddenHolder(holder: StoredDocument): void {
    if (this.viewCheck !== null && !this.viewCheck(holder)) {
      const displacer = this.displacer;
      if (displacer === null) throw writeConflict(false);
      if (this.records.deleteRecord(holder)) this.removedSilently(holder);
      displacer(holder, this);
      return;
    }
    this.remove(holder, 'expiredHolder');
  }

  /** Visible documents in natural order, read lazily (a live view, as a cursor needs). */
  *scan(nowMs: () => number): IterableIterator<StoredDocument> {
    const visible = this.visibility;
    for (const rec of this.kind ? this.kind.naturalOrder(this.records.values()) : this.records.values()) {
      if (this.kind && !this.records.hasRecord(rec)) continue; // removed since the ordering
      if (!visible || visible(rec, nowMs())) yield rec;
    }
  }

  /**
   * The stored records after `rec` in natural order (all of them when `rec` is null), read
   * lazily, visible or not; undefined when `rec` is no longer stored (a tailable cursor's
   * position lost to a capped eviction or a delete).
   */
  recordsAfter(rec: StoredDocument | null): IterableIterator<StoredDocument> | undefined {
    return rec === null ? this.records.values() : this.records.valuesAfter(rec);
  }

  /** Every stored record, visible or not (for the reaper and stats). */
  allRecords(): IterableIterator<StoredDocument> {
    return this.records.values();
  }

  /** The visible record whose `_id` has canonical key `id`. */
  getById(id: string, nowMs: number): StoredDocument | undefined {
    const rec = this.records.get(id);
    return rec && this.isVisible(rec, nowMs) ? rec : undefined;
  }

  /** The index called `name` (`_id_` included), if any. */
  findIndex(name: string): Index | undefined {
    return name === '_id_' ? this.idIndex : this.secondary.find((i) => i.name === name);
  }

  /** Every index, `_id_` first (the planner's candidates). */
  allIndexes(): readonly Index[] {
    return [this.idIndex, ...this.secondary];
  }

  /** True when the collection holds `rec` itself (not removed, not replaced). */
  holds(rec: StoredDocument): boolean {
    return this.records.hasRecord(rec);
  }

  /** Records by id, without a visibility check. */
  rawGet(id: string): StoredDocument | undefined {
    return this.records.get(id);
  }

  /** Every record under its `_id` (the entries of a deferred `_id_` index). */
  private idEntries(): Array<{ key: unknown; rec: StoredDocument }> {
    const entries: Array<{ key: unknown; rec: StoredDocument }> = [];
    for (const rec of this.records.values()) entries.push({ key: documentFields(rec, ID_FIELDS)._id, rec });
    return entries;
  }

  /** Total BSON size of the stored documents. */
  dataSize(): number {
    let size = 0;
    for (const rec of this.records.values()) size += recordSize(rec);
    return size;
  }

  /**
   * True when `id` orders after every stored `_id` (then no record holds it): asks the `_id_`
   * index when it keeps entries, else compares with the greatest `_id` entered.
   */
  private isGreatestId(id: unknown): boolean {
    if (this.idIndex.maintained) return this.idIndex.isAfterEveryKey(id);
    const greatest = this.greatestId;
    return greatest === NO_ID_YET || this.idIndex.compareKeys(greatest, id) < 0;
  }

  // ---- writes -----------------------------------------------------------------------------

  /**
   * Inserts `doc` (an `_id` is generated and moved first as mongod does). Throws 11000 on a
   * duplicate key held by a visible document; an expired holder is removed first.
   */
  insert(doc: Document, nowMs: number, maxBytes = Number.POSITIVE_INFINITY): StoredDocument {
    // A versioned row takes its columns in the document's order, `_id` first; a top-level
    // Timestamp(0, 0) becomes the next cluster time, as mongod stores it.
    const prepared = this.fillEmptyTimestamps(prepareForInsert(doc, this.rowModel !== null));
    // A document known to be small (it arrived in a small message) need not be measured, nor
    // its size checked. Decoded from `maxBytes` of BSON, it is written again within three times
    // that (a field name's invalid UTF-8 byte decodes to U+FFFD, 3 bytes), plus an `_id` added
    // here (17 bytes at most).
    const bson = this.rowModel ? null : encodeStored(prepared, nowMs, 3 * maxBytes + 32);
    if (maxBytes > (this.writes.documentLimit?.maxBytes ?? MAX_BSON_OBJECT_BYTES) - 32) this.checkStoredSize(bson === null ? bsonSize(prepared) : storedSize(bson));
    this.capped?.checkInsert(prepared);
    this.kind?.checkInsert(prepared);
    const id = keyString(prepared._id);
    // An `_id` after every one stored (increasing ObjectIds, counters) is held by no record,
    // expired or not, under the default collation or without: nothing to look up.
    const greatest = this.isGreatestId(prepared._id);
    if (!greatest) {
      const existing = this.records.get(id);
      if (existing) {
        if (this.isVisible(existing, nowMs)) throw this.kind?.duplicateIdError?.(prepared._id) ?? this.duplicateKeyError(ID_INDEX_SPEC.key as Document, { _id: prepared._id }, '_id_');
        this.clearHiddenHolder(existing);
      }
      if (this.idIndex.collator) this.checkCollatedId(prepared._id, nowMs);
    }
    const keys = this.indexKeysFor(prepared, null, nowMs);
    // A versioned collection's row model turns the document into a row of versions.
    const rec: StoredDocument = bson === null ? this.rowModel!.create(id, prepared, nowMs) : new BsonRecord(bson);
    this.enter(rec, keys, id, prepared._id, greatest);
    this.writes.inserted(this, rec, prepared);
    this.capped?.inserted(this, rec); // a capped collection drops its oldest documents
    return rec;
  }

  /** `doc`, or a copy whose top-level `Timestamp(0, 0)` values (but `_id`'s) are fresh cluster times (`fixDocumentForInsert`). */
  private fillEmptyTimestamps(doc: Document): Document {
    let out: Document | null = null;
    for (const key in doc) {
      if (key === '_id') continue;
      const value = doc[key];
      if (value instanceof Timestamp && value.low === 0 && value.high === 0) {
        out ??= { ...doc };
        assign(out, key, this.writes.nextTimestamp());
      }
    }
    return out ?? doc;
  }

  /**
   * Replaces the document of `rec` by `next` (same `_id`), keeping its natural position.
   * `changedFields` (the top-level fields the update may have changed; null: any) lets indexes
   * on other fields be left alone, as mongod does for updates that affect no index. `before`,
   * when given, is the document the update was computed from (`rec.doc`, already decoded).
   * `op` says how the write path reports it: an operator or pipeline `update`, or a `replace`.
   */
  update(rec: StoredDocument, next: Document, nowMs: number, changedFields: readonly string[] | null = null, before?: Document, op: 'update' | 'replace' = 'update'): void {
    const bson = rec instanceof BsonRecord ? encodeStored(next, nowMs) : null;
    this.checkStoredSize(bson === null ? bsonSize(next) : storedSize(bson));
    // An operator update shares the (immutable) `_id` value; anything else is compared by key.
    if (next._id !== before?._id && !RECORD_KEYING.hasKey(rec, keyString(next._id))) {
      throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    const affected = this.indexesAffected(changedFields);
    this.replaceEntries(rec, affected, before, next, nowMs);
    const beforeBson = rec.bson;
    // A versioned collection's row model records the change as versions; `rec.doc` is derived.
    if (bson !== null) (rec as BsonRecord).bson = bson; // with the new time
    else {
      this.rowModel!.modify(rec, next, nowMs);
      rec.modifiedAtMs = nowMs;
    }
    this.writes.updated(this, op, rec, before === undefined ? { bson: beforeBson } : { bson: beforeBson, doc: before }, { doc: next });
    this.capped?.updated(rec);
  }

  /**
   * What an update that changes only the top-level fields `fields` must read of a stored
   * document to store its change as a patch (`patch`): those fields and the fields of the
   * indexes they affect. Null when it cannot: `_id` among them, a row model, or an affected
   * index that reads the whole document (a partial filter).
   */
  patchFields(fields: readonly string[]): readonly string[] | null {
    return this.rowModel || fields.includes('_id') ? null : fieldsRead(this.indexesAffected(fields), fields);
  }

  /**
   * `update` for a change of only the top-level fields `fields` (`patchFields` gave what to
   * read): `before` and `after` hold those fields of the document before and after it. The
   * stored bytes of every other field are copied as they are (`patchStored`).
   */
  patch(rec: StoredDocument, fields: readonly string[], before: Document, after: Document, nowMs: number): void {
    const values: Document = {};
    for (const key of Object.keys(after)) {
      if (!fields.includes(key)) continue;
      if (key === '__proto__') Object.defineProperty(values, key, { value: after[key], writable: true, enumerable: true, configurable: true });
      else values[key] = after[key];
    }
    const bson = patchStored(rec.bson!, fields, values, nowMs);
    this.checkStoredSize(storedSize(bson));
    this.replaceEntries(rec, this.indexesAffected(fields), before, after, nowMs);
    const beforeBson = rec.bson;
    (rec as BsonRecord).bson = bson; // with the new time
    this.writes.updated(this, 'update', rec, { bson: beforeBson }, { bson });
    this.capped?.updated(rec);
  }

  /** Throws for a document of `size` bytes over the write path's limit (Cosmos DB's) or mongod's 16 MiB. */
  private checkStoredSize(size: number): void {
    const limit = this.writes.documentLimit;
    if (limit !== null && size > limit.maxBytes) throw limit.tooLarge(size, limit.maxBytes);
    checkSize(size);
  }

  /** The secondary indexes whose entries a change of the top-level fields `changed` may move (null: any). */
  private indexesAffected(changed: readonly string[] | null): readonly Index[] {
    return changed === null || this.secondary.length === 0 ? this.secondary : this.secondary.filter((index) => index.dependsOn(changed));
  }

  /**
   * Moves `rec`'s entries in `affected` from the keys of `before` (the stored document when not
   * given) to those of `next`, after checking unique keys (11000).
   */
  private replaceEntries(rec: StoredDocument, affected: readonly Index[], before: Document | undefined, next: Document, nowMs: number): void {
    const newKeys = this.indexKeysFor(next, rec, nowMs, affected);
    if (affected.length === 0) return;
    const old = before ?? rec.doc;
    affected.forEach((index, i) => index.replace(index.keysOf(old), newKeys[i]!, rec));
  }

  /**
   * Adds a record a row model built (a versioned `putRow` creating its row, a rename moving
   * rows); its `_id` must not be held. Indexes and the write path are told as for `insert`.
   */
  insertRecord(rec: StoredDocument): void {
    if (this.records.has(rec.id)) throw new Error(`record ${rec.id} is already held by ${this.ns}`);
    const doc = rec.doc;
    const keys = this.indexKeysFor(doc, null, rec.modifiedAtMs);
    this.enter(rec, keys, rec.id, doc._id);
    this.writes.inserted(this, rec, doc);
  }

  /**
   * Tells the write path that a row model changed `rec` in place at `nowMs` (a versioned `putRow`
   * on an existing row; `before`: the row's document before). Only for collections with a row
   * model, which have no secondary index.
   */
  rowChanged(rec: StoredDocument, nowMs: number, before?: Document): void {
    rec.modifiedAtMs = nowMs;
    this.writes.updated(this, 'update', rec, { doc: before }, {});
  }

  /**
   * Puts `rec` into the stored state `bson` (null: absent) with its index entries, telling no
   * one: a transaction's changes applied for its statement and withdrawn after, or a snapshot
   * view's records put back for its reader (write/snapshots.ts). A record hidden by the view
   * applied now that holds a key `rec` needs is taken out and handed to `displaced` (without it:
   * 112). Only records with stored bytes (no row model) are tracked.
   */
  restoreRecord(rec: StoredDocument, bson: string | null, displaced?: Displaced): void {
    if (!(rec instanceof BsonRecord)) return;
    const held = this.records.hasRecord(rec);
    this.restoring(displaced, () => {
      if (bson === null) {
        if (held && this.records.deleteRecord(rec)) this.removedSilently(rec);
        return;
      }
      if (!held) {
        rec.bson = bson;
        this.reenter(rec);
        return;
      }
      if (rec.bson === bson) return;
      const next = decodeStored(bson);
      this.replaceEntries(rec, this.secondary, undefined, next, storedTime(bson));
      rec.bson = bson;
    });
  }

  /**
   * `restoreRecord` of many records at once (a snapshot view's records put back, or the head
   * after it): every entry they leave is removed before any they take is added, so that keys
   * the records trade among themselves never conflict. Records stay where they are in natural
   * order while they stay stored.
   */
  restoreRecords(states: ReadonlyMap<StoredDocument, string | null>, displaced: Displaced): void {
    this.restoring(displaced, () => {
      const moved: BsonRecord[] = [];
      for (const [rec, bson] of states) {
        if (!(rec instanceof BsonRecord) || !this.records.hasRecord(rec) || rec.bson === bson) continue;
        this.removedSilently(rec);
        if (bson === null) this.records.deleteRecord(rec);
        else moved.push(rec);
      }
      for (const rec of moved) {
        rec.bson = states.get(rec)!;
        const doc = rec.doc;
        const keys = this.indexKeysFor(doc, rec, rec.modifiedAtMs);
        if (this.idIndex.maintained) this.idIndex.tree.insert(doc._id, rec);
        for (let i = 0; i < this.secondary.length; i++) this.secondary[i]!.add(keys[i]!, rec);
      }
      for (const [rec, bson] of states) {
        if (bson === null || !(rec instanceof BsonRecord) || this.records.hasRecord(rec)) continue;
        rec.bson = bson;
        this.reenter(rec);
      }
    });
  }

  /** Runs `work` silently, with `displaced` told of hidden holders taken out. */
  private restoring(displaced: Displaced | undefined, work: () => void): void {
    const outer = this.displacer;
    if (displaced !== undefined) this.displacer = displaced;
    try {
      this.writes.silently(work);
    } finally {
      this.displacer = outer;
    }
  }

  /** Stores `rec` again (its bytes set) under its `_id`, a holder hidden by the view taken out first. */
  private reenter(rec: BsonRecord): void {
    const holder = this.records.get(rec.id);
    if (holder !== undefined && holder !== rec && this.viewCheck !== null && !this.viewCheck(holder)) this.clearHiddenHolder(holder);
    const doc = rec.doc;
    this.enter(rec, this.indexKeysFor(doc, null, rec.modifiedAtMs), rec.id, doc._id);
  }

  /** The index entries of `rec` (just taken out of the table, or about to be given others) removed (no write path, no cap). */
  private removedSilently(rec: StoredDocument): void {
    const doc = rec.doc;
    for (const index of this.secondary) index.remove(index.keysOf(doc), rec);
    if (this.idIndex.maintained) this.idIndex.tree.delete(doc._id, rec);
  }

  /** Removes `rec` (a client delete; `cause`: a removal the storage makes on its own). */
  remove(rec: StoredDocument, cause?: DeleteCause): boolean {
    // Only a record this collection holds (the table finds that very object).
    if (!this.records.deleteRecord(rec)) return false;
    this.removed(rec, cause);
    return true;
  }

  /**
   * Removes those of `recs[0, count)` that this collection holds, as `remove` each would, and
   * returns how many (the TTL reaper's batches; see `RecordTable.deleteRecords`).
   */
  removeRecords(recs: StoredDocument[], count: number, cause?: DeleteCause): number {
    const removed = this.records.deleteRecords(recs, count);
    for (let k = 0; k < removed; k++) this.removed(recs[k]!, cause);
    return removed;
  }

  /** What follows the removal of `rec` from the table: its index entries, the write path, the cap. */
  private removed(rec: StoredDocument, cause: DeleteCause | undefined): void {
    const idMaintained = this.idIndex.maintained;
    if (this.secondary.length > 0 || idMaintained) {
      // The document is decoded only as far as the indexes need.
      const doc = documentFields(rec, this.fieldsForRemoval(idMaintained));
      for (const index of this.secondary) index.remove(index.keysOf(doc), rec);
      if (idMaintained) this.idIndex.tree.delete(doc._id, rec);
    }
    this.writes.deleted(this, rec, cause);
    this.capped?.removed(rec);
  }

  /** The top-level fields `remove` decodes (`removalFields`). */
  private fieldsForRemoval(withId: boolean): readonly string[] | null {
    if (this.removalFields === null) {
      const fields = fieldsRead(this.secondary, []);
      this.removalFields = [fields, fields && (fields.includes('_id') ? fields : [...fields, '_id'])];
    }
    return this.removalFields[withId ? 1 : 0];
  }

  /**
   * Removes every document at once, telling no one of each (a drop, or the source of a move
   * across databases: the catalog reports those).
   */
  clear(): void {
    this.records.clear();
    for (const index of this.secondary) index.clear();
    this.idIndex.clear();
    this.capped?.cleared();
  }

  // ---- indexes ----------------------------------------------------------------------------

  /** The specs `listIndexes` reports, `_id_` first. */
  indexSpecs(): Document[] {
    return [this.idIndex.spec, ...this.secondary.map((i) => i.spec)];
  }

  /** The secondary indexes. */
  get indexes(): readonly Index[] {
    return this.secondary;
  }

  /**
   * Builds an index over the existing documents; on a duplicate key nothing is kept and 11000
   * is thrown. Expired documents are not indexed-checked (they are removed first).
   */
  addIndex(spec: Document, nowMs: number): Index {
    this.rowModel?.checkIndex(spec); // versioned collections refuse secondary indexes
    const index = new Index(spec);
    const expired = this.expiryCheck;
    if (expired !== null) {
      for (const rec of [...this.records.values()]) if (!expired(rec, nowMs)) this.remove(rec, 'expiredHolder');
    }
    this.build(index);
    index.accesses.sinceMs = nowMs;
    this.secondary.push(index);
    this.removalFields = null;
    return index;
  }

  /**
   * Fills a new index from the stored records: keys gathered, sorted once, checked for
   * duplicates (11000, and nothing is kept), then loaded into the tree in one pass.
   */
  private build(index: Index): void {
    const entries: Array<{ key: unknown; rec: StoredDocument }> = [];
    const multikey: number[][][] = [];
    for (const rec of this.records.values()) {
      const keys = index.keysOf(rec.doc);
      for (const key of keys.keys) entries.push({ key, rec });
      if (keys.multikeyComponents) multikey.push(keys.multikeyComponents);
      if (keys.multikeyPaths) index.noteMultikeyPaths(keys.multikeyPaths);
    }
    index.load(entries);
    if (index.unique) {
      for (let i = 1; i < entries.length; i++) {
        const a = entries[i - 1]!;
        const b = entries[i]!;
        if (a.rec !== b.rec && index.compareKeys(a.key, b.key) === 0) {
          index.clear();
          throw this.duplicateKeyError(index.keyPattern, index.keyValueDoc(b.key), index.name);
        }
      }
    }
    for (const components of multikey) index.noteMultikey(components);
  }

  /** Drops the secondary index called `name`; false when there is none. */
  dropIndex(name: string): boolean {
    const i = this.secondary.findIndex((x) => x.name === name);
    if (i < 0) return false;
    this.secondary.splice(i, 1);
    this.removalFields = null;
    return true;
  }

  /** Replaces the stored spec of index `name` (collMod); the key stays. */
  replaceIndexSpec(name: string, spec: Document): void {
    const i = this.secondary.findIndex((x) => x.name === name);
    if (i < 0) return;
    const old = this.secondary[i]!;
    const next = old.withSpec(spec);
    if (!old.sharesEntriesWith(spec)) this.build(next);
    this.secondary[i] = next;
    this.removalFields = null;
  }

  /**
   * Stores a new record under `key`, which no record holds (`insert` and `insertRecord` have
   * just checked): its sequence number, the `_id` map and every index. `greatest` is
   * `isGreatestId(id)`, when the caller has asked it already.
   */
  private enter(rec: StoredDocument, keys: IndexKeys[], key: string, id: unknown, greatest = this.isGreatestId(id)): void {
    rec.seq = this.nextSeq++;
    this.records.add(key, rec);
    if (this.idIndex.maintained) this.idIndex.tree.insert(id, rec);
    else if (greatest) this.greatestId = id;
    const secondary = this.secondary;
    for (let i = 0; i < secondary.length; i++) secondary[i]!.add(keys[i]!, rec);
  }

  /** Under a default collation, an `_id` equal to a visible one under it is a duplicate (11000). */
  private checkCollatedId(id: unknown, nowMs: number): void {
    const single: IndexKeys = { keys: [id], multikeyComponents: null };
    let conflict = this.idIndex.findConflict(single, null);
    while (conflict) {
      if (this.isVisible(conflict.holder, nowMs)) throw this.duplicateKeyError(ID_INDEX_SPEC.key as Document, { _id: id }, '_id_');
      this.clearHiddenHolder(conflict.holder);
      conflict = this.idIndex.findConflict(single, null);
    }
  }

  /** mongod's duplicate key error for `keyValue` in index `indexName`. */
  duplicateKeyError(keyPattern: Document, keyValue: Document, indexName: string): CommandError {
    return new CommandError(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.ns} index: ${indexName} dup key: ${formatValue(keyValue)}`,
      { keyPattern, keyValue },
    );
  }

  /**
   * Keys of `doc` per index of `indexes` (every secondary index by default), after checking
   * unique constraints against visible holders.
   */
  private indexKeysFor(doc: Document, self: StoredDocument | null, nowMs: number, indexes: readonly Index[] = this.secondary): IndexKeys[] {
    if (indexes.length === 0) return NO_INDEX_KEYS;
    const keys = indexes.map((index) => index.keysOf(doc));
    indexes.forEach((index, i) => {
      let conflict = index.findConflict(keys[i]!, self);
      while (conflict) {
        const holder = conflict.holder;
        if (this.isVisible(holder, nowMs)) {
          throw this.duplicateKeyError(index.keyPattern, index.keyValueDoc(conflict.key), index.name);
        }
        this.clearHiddenHolder(holder);
        conflict = index.findConflict(keys[i]!, self);
      }
    });
    return keys;
  }
}

/**
 * The top-level fields `base` and those `indexes` read to find a document's entries
 * (`Index.keyFields`), once each; null when one of them reads the whole document.
 */
function fieldsRead(indexes: readonly Index[], base: readonly string[]): string[] | null {
  const fields = [...base];
  for (const index of indexes) {
    if (index.keyFields === null) return null;
    for (const field of index.keyFields) addTopLevelField(fields, field);
  }
  return fields;
}

/**
 * Checks `_id` and moves it first, generating an ObjectId when absent (in a copy: `doc` is not
 * changed). With `idFirst` false a given `_id` stays where it is: the stored form puts it first
 * itself (`encodeStored`), which spares a copy of each document a driver sent with its `_id` last.
 */
export function prepareForInsert(doc: Document, idFirst = true): Document {
  const id = doc._id;
  if (id === undefined) return withIdFirst(new ObjectId(), doc);
  validateId(id);
  if (!idFirst) return doc;
  for (const first in doc) return first === '_id' ? doc : withIdFirst(id, doc);
  return doc;
}

/**
 * A copy of `doc` with `_id` set to `id` and placed first (drivers append the `_id` they
 * generate). Built from `{}`, as the decoder builds documents: the copy has the hidden classes
 * of documents that arrived `_id`-first and room for four fields in itself, where a literal
 * `{ _id: id }` has room for one and puts the others in a second object the heap keeps.
 */
function withIdFirst(id: unknown, doc: Document): Document {
  const out: Document = {};
  out._id = id;
  // `assign`: a `__proto__` field stays a field (plain assignment would set the prototype).
  for (const key in doc) if (key !== '_id') assign(out, key, doc[key]);
  return out;
}

/** Throws 53 InvalidIdField for an `_id` mongod refuses (array, regex, undefined). */
export function validateId(id: unknown): void {
  const type = bsonTypeOf(id);
  if (type === 'array' || type === 'regex' || type === 'undefined') {
    throw new CommandError('InvalidIdField', `The '_id' value cannot be of type ${type}`);
  }
  if (type === 'object') {
    for (const key of Object.keys(id as Document)) {
      if (key.startsWith('$')) {
        throw new CommandError('DollarPrefixedFieldName', `_id fields may not contain '$'-prefixed fields: ${key} is not valid for storage.`);
      }
    }
  }
}

/** Throws 10334 BSONObjectTooLarge for a document over 16 MiB. */
export function checkDocumentSize(doc: Document): void {
  checkSize(bsonSize(doc));
}

/** Throws 10334 BSONObjectTooLarge for a document of `size` bytes over 16 MiB. */
function checkSize(size: number): void {
  if (size > MAX_BSON_OBJECT_BYTES) {
    throw new CommandError('BSONObjectTooLarge', `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_BYTES}`);
  }
}
