/**
 * A record: a stored document and the metadata the server keeps beside it, and the readers of
 * its document that decode no more of its stored bytes (record_format.ts) than they need. The
 * record of an ordinary collection is a `BsonRecord`; a versioned collection's rows derive theirs.
 */
import type { Document } from '../bson/library.js';
import { bsonSize } from '../bson/encode.js';
import { StoredBson, decodeStored, decodeStoredField, decodeStoredFields, encodeStored, readStoredFields, storedFieldForOrder, storedSize, storedTime } from './record_format.js';
import { storedIdKey } from './record_table.js';

/** A stored document and the metadata the server keeps beside it (never returned to clients). */
export interface StoredDocument {
  /** `keyString(doc._id)`. */
  readonly id: string;
  doc: Document;
  /** The system last-modified time (Cosmos `_ts`), ms since the epoch. */
  modifiedAtMs: number;
  /**
   * The record's place in insertion order (mongod's RecordId), set by the collection when the
   * record enters it; index entries with equal keys are ordered by it.
   */
  seq?: number;
  /** The document's BSON bytes (`BsonRecord`); undefined for a record whose `doc` is derived. */
  readonly bson?: string;
}

/**
 * The record of an ordinary collection: its document kept as BSON bytes, one per character of a
 * latin1 string, in the compact stored form that also holds the modification time
 * (`encodeStored`), which takes about a third of the memory of the decoded objects and is copied
 * into replies as it is. Reading `doc` decodes a fresh copy: changing that copy changes nothing
 * stored.
 */
export class BsonRecord implements StoredDocument {
  bson: string;
  seq = 0;

  /** A record of the stored form `bson`. */
  constructor(bson: string) {
    this.bson = bson;
  }

  /** The modification time kept in the stored form. */
  get modifiedAtMs(): number {
    return storedTime(this.bson);
  }

  /** Stores the document again with another modification time. */
  set modifiedAtMs(ms: number) {
    this.bson = encodeStored(this.doc, ms);
  }

  /** The canonical key of the document's `_id`, read from its bytes (the record keeps no copy). */
  get id(): string {
    return storedIdKey(this.bson);
  }

  /** A decoded copy of the document. */
  get doc(): Document {
    return decodeStored(this.bson);
  }

  /** Stores `next` (measured by the caller: `Collection.update` checks its size). */
  set doc(next: Document) {
    this.bson = encodeStored(next, this.modifiedAtMs);
  }
}

/**
 * The part of `rec`'s document a reader of only the top-level fields `fields` needs (a filter:
 * `predicateFields`): those fields decoded, the others left as bytes; the whole document when
 * `fields` is null or the record has no bytes.
 */
export function documentFields(rec: StoredDocument, fields: readonly string[] | null): Document {
  if (fields !== null && fields.length === 0) return NO_FIELDS;
  const bson = rec.bson;
  return bson === undefined || fields === null ? rec.doc : decodeStoredFields(bson, fields);
}

/**
 * The value of `rec`'s top-level field `name` (ASCII), or undefined when it has none: read from
 * the record's bytes without decoding a document (the TTL policies' per-record reads).
 */
export function documentField(rec: StoredDocument, name: string): unknown {
  const bson = rec.bson;
  if (bson !== undefined) return decodeStoredField(bson, name);
  const doc = rec.doc;
  return Object.hasOwn(doc, name) ? doc[name] : undefined;
}

/**
 * Reads the top-level fields `names` (no name twice) of `rec`'s document into `out`: `out[i]` the
 * value of `names[i]`, `absent` when it has none. From the record's bytes when it has them
 * (`readStoredFields`: no document made), else from its document.
 */
export function readRecordFields(rec: StoredDocument, names: readonly string[], out: unknown[], absent: unknown): void {
  const bson = rec.bson;
  if (bson !== undefined) {
    readStoredFields(bson, names, out, absent);
    return;
  }
  const doc = rec.doc;
  for (let i = 0; i < names.length; i++) out[i] = Object.hasOwn(doc, names[i]!) ? doc[names[i]!] : absent;
}

/**
 * The value of `rec`'s top-level field `name` (ASCII) as an ordering reads it (a double may be a
 * plain number: `storedFieldForOrder`), or undefined when it has none.
 */
export function documentFieldForOrder(rec: StoredDocument, name: string): unknown {
  const bson = rec.bson;
  if (bson !== undefined) return storedFieldForOrder(bson, name);
  const doc = rec.doc;
  return Object.hasOwn(doc, name) ? doc[name] : undefined;
}

/** What a reader of no field sees of any document (shared, frozen). */
const NO_FIELDS: Document = Object.freeze({});

/** What a reply holds for `rec`'s document: its stored bytes, spliced in as they are, when it has them. */
export function replyDocument(rec: StoredDocument): Document {
  const bson = rec.bson;
  return bson === undefined ? rec.doc : (new StoredBson(bson) as unknown as Document);
}

/** The BSON size of `rec`'s document. */
export function recordSize(rec: StoredDocument): number {
  const bson = rec.bson;
  return bson === undefined ? bsonSize(rec.doc) : storedSize(bson);
}
