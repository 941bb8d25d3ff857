/**
 * The one place that imports the `bson` library, and the value representation every layer
 * above works with. The codec is beside it: `decode.ts` (bytes to documents) and `encode.ts`
 * (documents to bytes); the form a collection keeps its documents in is the storage layer's
 * (src/storage/record_format.ts).
 *
 * Value representation (ARCHITECTURE.md, convention 3): documents are plain JS objects whose
 * values are
 *   - a JS `number` when the BSON type is unambiguous from the number itself: an Int32 is an
 *     integral number within int32 range (never -0); a Double is any other number (fractional,
 *     -0, NaN, ±Infinity, or integral outside int32);
 *   - a `Double` wrapper only for a Double whose value is integral and within int32 (1.0), which a
 *     bare number would turn into an Int32 on the way back;
 *   - `Long`, `Decimal128`, `ObjectId`, `Binary`, `Timestamp`, `BSONRegExp`, `Code`, `MinKey`,
 *     `MaxKey`, `BSONSymbol`, `DBRef`-shaped objects, `Date`, strings, booleans, null, arrays and
 *     plain objects as `bson` gives them;
 *   - an `EncodedDocument` (below) for an embedded document that is already BSON bytes.
 * `deserialize` (decode.ts) produces exactly this; `serialize` (encode.ts) writes it back byte for byte.
 */
import {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  BSONError,
  calculateObjectSize,
  serialize as bsonSerialize,
  deserialize as bsonDeserialize,
  EJSON,
} from 'bson';

export {
  Binary,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  BSONError,
  calculateObjectSize,
  EJSON,
};

/**
 * An ObjectId as the bson library (7.x) holds it: four big-endian 24-bit words. Reading them
 * builds nothing, unlike `ObjectId.id`, which allocates a 12-byte buffer on every call; hot
 * paths (the `_id` map and index) use them after checking `typeof i3 === 'number'`.
 */
export interface ObjectIdWords {
  readonly _bsontype: string;
  readonly i0: number;
  readonly i1: number;
  readonly i2: number;
  readonly i3: number;
}

/**
 * The type tag of a js-bson value (`'ObjectId'`, `'Long'`, ...), which js-bson's classes define on
 * their prototypes; undefined for anything else. A document may have a field named `_bsontype`
 * (mongod stores and returns it like any other field), so an own property of that name never
 * makes a plain object one of js-bson's values. `v` must not be null or undefined.
 */
export function bsonTag(v: unknown): unknown {
  const tag = (v as { _bsontype?: unknown })._bsontype;
  return tag === undefined || Object.hasOwn(v as object, '_bsontype') ? undefined : tag;
}

/** Largest BSON document a user may store (mongod's `BSONObjMaxUserSize`, `maxBsonObjectSize` in hello). */
export const MAX_BSON_OBJECT_BYTES = 16 * 1024 * 1024;

/** A BSON document in Mayfly's value representation. */
export type Document = { [key: string]: unknown };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** True when `n` would be written as an Int32 by `bson.serialize`. */
export function isInt32Number(n: number): boolean {
  return Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX && !Object.is(n, -0);
}

/** A BSON Double holding `n`, in the representation above (wrapped only when it must be). */
export function makeDouble(n: number): number | Double {
  return isInt32Number(n) ? new Double(n) : n;
}

const DESERIALIZE_OPTIONS = {
  promoteValues: false,
  promoteLongs: false,
  promoteBuffers: false,
  bsonRegExp: true,
  validation: { utf8: true },
} as const;

/** Turns `bson`'s unpromoted values into the representation above, in place. */
function normalise(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Int32) return value.value;
  if (value instanceof Double) return makeDouble(value.value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normalise(value[i]);
    return value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const obj = value as Document;
    for (const key in obj) obj[key] = normalise(obj[key]);
    return obj;
  }
  if (value instanceof DBRef) {
    // DBRef-shaped subdocuments stay plain documents: a server does not interpret them.
    const ref = value as DBRef;
    const doc: Document = { $ref: ref.collection, $id: normalise(ref.oid) };
    if (ref.db) doc.$db = ref.db;
    for (const [k, v] of Object.entries(ref.fields ?? {})) doc[k] = normalise(v);
    return doc;
  }
  return value;
}

/**
 * The previous path, js-bson's decoder with wrappers then a walk that unwraps them; kept as the
 * reference the decoder is tested against (test/unit/bson/) and for benchmarks. Not for use.
 */
export function deserializeViaJsBson(bytes: Uint8Array): Document {
  const doc = bsonDeserialize(bytes, DESERIALIZE_OPTIONS) as Document;
  return normalise(doc) as Document;
}

/** js-bson's serialiser with Mayfly's options: the reference and fallback of encode.ts. */
export function serializeViaJsBson(doc: Document): Uint8Array {
  return bsonSerialize(withEncodedDecoded(doc) as Document, { checkKeys: false, ignoreUndefined: false });
}

/** How deep `withEncodedDecoded` looks for encoded documents. */
const ENCODED_DEPTH = 4;

/**
 * `value` with every `EncodedDocument` in it decoded (js-bson knows nothing of them); the same
 * objects where there is none. Only on js-bson's path, which is rare. Replies hold stored
 * documents a few levels down (`cursor.firstBatch.<i>`), so the walk stops below
 * `ENCODED_DEPTH` (and cannot loop on a circular structure, which js-bson then refuses).
 */
function withEncodedDecoded(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > ENCODED_DEPTH) return value;
  if (value instanceof EncodedDocument) return value.decode();
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = withEncodedDecoded(value[i], depth + 1);
      if (v !== value[i]) (copy ??= value.slice())[i] = v;
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Document | null = null;
  for (const key in value as Document) {
    const v = withEncodedDecoded((value as Document)[key], depth + 1);
    if (v === (value as Document)[key]) continue;
    copy ??= { ...(value as Document) };
    Object.defineProperty(copy, key, { value: v, writable: true, enumerable: true, configurable: true });
  }
  return copy ?? value;
}

/**
 * An embedded document already in BSON form elsewhere (a collection's stored form:
 * `StoredBson` of src/storage/record_format.ts), written into a reply as its bytes instead of
 * being decoded and encoded again. It stands for a document wherever a reply holds one (a
 * cursor batch, findAndModify's `value`).
 */
export abstract class EncodedDocument {
  /** Its BSON size in bytes. */
  abstract bsonSize(): number;
  /** Writes its BSON at `offset` of `target` (which has room for it); returns the offset after it. */
  abstract writeBson(target: Buffer, offset: number): number;
  /** The document, decoded. */
  abstract decode(): Document;
}

/** `calculateObjectSize` of js-bson with Mayfly's options: the reference and fallback of `bsonSize` (encode.ts). */
export function bsonSizeViaJsBson(doc: Document): number {
  return calculateObjectSize(withEncodedDecoded(doc) as Document, { ignoreUndefined: false });
}
