/**
 * One collection: documents in natural (insertion) order keyed by their canonical `_id`, the
 * secondary indexes kept in step with every write, and the hooks through which the TTL engine
 * hides expired documents and learns of writes. Storage never sees bytes, sockets or replies.
 */
import { ObjectId, UUID, bsonSize, type Document } from '../bson.js';
import { CommandError } from '../errors/command_error.js';
import { bsonToString } from '../errors/bson_to_string.js';
import { Index, type IndexKey } from './indexes/index.js';
import { keyString } from './values/key_string.js';
import { bsonTypeOf } from './values/bson_type.js';

/** The largest document mongod stores (16 MiB). */
export const MAX_BSON_OBJECT_BYTES = 16 * 1024 * 1024;

/** A stored document and the metadata the server keeps beside it (never returned to clients). */
export interface StoredDocument {
  /** `keyString(doc._id)`. */
  readonly id: string;
  doc: Document;
  /** The system last-modified time (Cosmos `_ts`), ms since the epoch. */
  modifiedAtMs: number;
}

/** How the TTL engine plugs into a collection. Every hook is optional. */
export interface CollectionHooks {
  /** False when `rec` has expired and must be invisible to every read and write at `nowMs`. */
  isVisible?(rec: StoredDocument, nowMs: number): boolean;
  /** After an insert. */
  afterInsert?(rec: StoredDocument): void;
  /** After a modification (the record already holds the new document and time). */
  afterUpdate?(rec: StoredDocument): void;
  /** After a removal (by a client or the reaper). */
  afterDelete?(rec: StoredDocument): void;
  /** When the collection is dropped or emptied. */
  afterClear?(): void;
}

/** The `_id` index spec every collection has. */
export const ID_INDEX_SPEC: Document = Object.freeze({ v: 2, key: { _id: 1 }, name: '_id_' });

/** A collection of documents. */
export class Collection {
  readonly db: string;
  name: string;
  readonly uuid = new UUID();
  /** Options given to `create` (shown by listCollections). */
  options: Document;
  private readonly records = new Map<string, StoredDocument>();
  private readonly secondary: Index[] = [];
  /** Hooks installed by the TTL engine. */
  hooks: CollectionHooks = {};

  /** An empty collection. */
  constructor(db: string, name: string, options: Document = {}) {
    this.db = db;
    this.name = name;
    this.options = options;
  }

  /** `db.name`. */
  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  /** Number of stored documents (expired ones included until they are removed). */
  get storedCount(): number {
    return this.records.size;
  }

  /** True when `rec` is readable at `nowMs`. */
  isVisible(rec: StoredDocument, nowMs: number): boolean {
    return this.hooks.isVisible ? this.hooks.isVisible(rec, nowMs) : true;
  }

  /** Visible documents in natural order, read lazily (a live view, as a cursor needs). */
  *scan(nowMs: () => number): IterableIterator<StoredDocument> {
    const visible = this.hooks.isVisible;
    for (const rec of this.records.values()) {
      if (!visible || visible(rec, nowMs())) yield rec;
    }
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

  /** Ids of visible records whose `indexName` key equals `ks`, or null when there is no such index. */
  lookupIndex(indexName: string, ks: string): ReadonlySet<string> | null {
    const index = this.secondary.find((i) => i.name === indexName);
    return index ? (index.lookup(ks) ?? new Set()) : null;
  }

  /** The secondary index with a single-field key on `field`, if any. */
  singleFieldIndex(field: string): Index | undefined {
    return this.secondary.find((i) => i.fields.length === 1 && i.fields[0] === field && !i.partialFilter && !i.sparse);
  }

  /** Records by id, without a visibility check. */
  rawGet(id: string): StoredDocument | undefined {
    return this.records.get(id);
  }

  /** Total BSON size of the stored documents. */
  dataSize(): number {
    let size = 0;
    for (const rec of this.records.values()) size += bsonSize(rec.doc);
    return size;
  }

  // ---- writes -----------------------------------------------------------------------------

  /**
   * Inserts `doc` (an `_id` is generated and moved first as mongod does). Throws 11000 on a
   * duplicate key held by a visible document; an expired holder is removed first.
   */
  insert(doc: Document, nowMs: number): StoredDocument {
    const prepared = prepareForInsert(doc);
    checkDocumentSize(prepared);
    const id = keyString(prepared._id);
    const existing = this.records.get(id);
    if (existing) {
      if (this.isVisible(existing, nowMs)) throw this.duplicateKeyError(ID_INDEX_SPEC.key as Document, { _id: prepared._id }, '_id_');
      this.remove(existing);
    }
    const keys = this.indexKeysFor(prepared, null, nowMs);
    const rec: StoredDocument = { id, doc: prepared, modifiedAtMs: nowMs };
    this.records.set(id, rec);
    this.secondary.forEach((index, i) => index.add(keys[i]!, id));
    this.hooks.afterInsert?.(rec);
    return rec;
  }

  /** Replaces the document of `rec` by `next` (same `_id`), keeping its natural position. */
  update(rec: StoredDocument, next: Document, nowMs: number): void {
    checkDocumentSize(next);
    if (keyString(next._id) !== rec.id) {
      throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    const newKeys = this.indexKeysFor(next, rec.id, nowMs);
    this.secondary.forEach((index, i) => {
      index.remove(index.keysOf(rec.doc), rec.id);
      index.add(newKeys[i]!, rec.id);
    });
    rec.doc = next;
    rec.modifiedAtMs = nowMs;
    this.hooks.afterUpdate?.(rec);
  }

  /** Removes `rec` (a client delete or the reaper). */
  remove(rec: StoredDocument): boolean {
    if (this.records.get(rec.id) !== rec) return false;
    for (const index of this.secondary) index.remove(index.keysOf(rec.doc), rec.id);
    this.records.delete(rec.id);
    this.hooks.afterDelete?.(rec);
    return true;
  }

  /** Removes every document. */
  clear(): void {
    this.records.clear();
    for (const index of this.secondary) index.clear();
    this.hooks.afterClear?.();
  }

  // ---- indexes ----------------------------------------------------------------------------

  /** The specs `listIndexes` reports, `_id_` first. */
  indexSpecs(): Document[] {
    return [ID_INDEX_SPEC, ...this.secondary.map((i) => i.spec)];
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
    const index = new Index(spec);
    const built: Array<[IndexKey[], string]> = [];
    for (const rec of [...this.records.values()]) {
      if (!this.isVisible(rec, nowMs)) {
        this.remove(rec);
        continue;
      }
      const keys = index.keysOf(rec.doc);
      const conflict = index.findConflict(keys, rec.id);
      if (conflict) {
        throw this.duplicateKeyError(index.keyPattern, index.keyValueDoc(conflict.key), index.name);
      }
      index.add(keys, rec.id);
      built.push([keys, rec.id]);
    }
    this.secondary.push(index);
    return index;
  }

  /** Drops the secondary index called `name`; false when there is none. */
  dropIndex(name: string): boolean {
    const i = this.secondary.findIndex((x) => x.name === name);
    if (i < 0) return false;
    this.secondary.splice(i, 1);
    return true;
  }

  /** Replaces the stored spec of index `name` (collMod); the key stays. */
  replaceIndexSpec(name: string, spec: Document): void {
    const i = this.secondary.findIndex((x) => x.name === name);
    if (i < 0) return;
    const old = this.secondary[i]!;
    const next = new Index(spec);
    for (const rec of this.records.values()) next.add(next.keysOf(rec.doc), rec.id);
    this.secondary[i] = next;
    void old;
  }

  /** mongod's duplicate key error for `keyValue` in index `indexName`. */
  duplicateKeyError(keyPattern: Document, keyValue: Document, indexName: string): CommandError {
    return new CommandError(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.ns} index: ${indexName} dup key: ${bsonToString(keyValue)}`,
      { keyPattern, keyValue },
    );
  }

  /** Keys of `doc` per secondary index, after checking unique constraints against visible holders. */
  private indexKeysFor(doc: Document, selfId: string | null, nowMs: number): IndexKey[][] {
    const keys = this.secondary.map((index) => index.keysOf(doc));
    this.secondary.forEach((index, i) => {
      let conflict = index.findConflict(keys[i]!, selfId);
      while (conflict) {
        const holder = this.records.get(conflict.holderId);
        if (holder && this.isVisible(holder, nowMs)) {
          throw this.duplicateKeyError(index.keyPattern, index.keyValueDoc(conflict.key), index.name);
        }
        if (holder) this.remove(holder);
        conflict = index.findConflict(keys[i]!, selfId);
      }
    });
    return keys;
  }
}

/** Checks `_id` and moves it first, generating an ObjectId when absent. */
export function prepareForInsert(doc: Document): Document {
  if (!('_id' in doc) || doc._id === undefined) return { _id: new ObjectId(), ...doc };
  validateId(doc._id);
  const first = Object.keys(doc)[0];
  if (first === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
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
  const size = bsonSize(doc);
  if (size > MAX_BSON_OBJECT_BYTES) {
    throw new CommandError('BSONObjectTooLarge', `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_BYTES}`);
  }
}
