/**
 * A BSON encoder over Mayfly's value representation (src/bson.ts header), the twin of the
 * one-pass decoder (src/bson_decode.ts).
 *
 * `documentSize` measures a document in one walk; `encodeDocumentInto` then writes it into a
 * buffer the caller allocated at that size (the reply frame itself: src/wire/op_msg.ts), so a
 * reply is neither serialised into js-bson's 17 MB scratch buffer nor copied out of it. The bytes
 * are exactly those of js-bson's `serialize(doc, { checkKeys: false, ignoreUndefined: false })`:
 * key order kept, `undefined` written as null (0x0A, as js-bson does with ignoreUndefined off), a
 * number as Int32 when it is integral within int32 and not -0 and as a Double otherwise, a `Double`
 * wrapper as a Double, a Date as its int64 milliseconds (0 for an invalid Date), a BSONRegExp's
 * options sorted, a Binary of subtype 2 in the old layout (an inner length before the bytes).
 *
 * Anything else (Code, BSONSymbol, a DBRef instance, Int32 wrappers, a JS RegExp, Buffers, Maps,
 * class instances, functions, bigints, symbols, a vector, nesting past `MAX_WALK_DEPTH`, which is
 * also how a circular structure is caught) is measured as -1 or refused by the writer, and the
 * caller hands the WHOLE document to js-bson: its bytes or its error (a key holding a NUL byte, a
 * regex pattern holding one, an invalid vector) stay what they were.
 * One difference on purpose: a document larger than js-bson's 17 MB scratch buffer, which js-bson
 * truncates (or refuses with a RangeError), is written whole.
 * A second difference on purpose: a field named `_bsontype` is written like any other (mongod
 * stores and returns it), where js-bson takes the object holding it for one of its own values and
 * refuses it.
 * Spec: https://bsonspec.org/spec.html
 */
import {
  bsonTag,
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  isInt32Number,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  serializeViaJsBson,
  Timestamp,
  type Document,
  type ObjectIdWords,
} from './bson.js';
import { decodeStored, storedElements, storedSize, STORED_TIME_CHARS, writeStoredBson } from './bson_decode.js';

/** Nesting deeper than this is measured as -1 (js-bson then serialises it or finds the cycle). */
export const MAX_WALK_DEPTH = 1000;

/**
 * A stored document (its compact stored form, `encodeStored`), written into a reply as its BSON
 * bytes instead of being decoded and encoded again. It stands for an embedded document wherever
 * a reply holds one (a cursor batch, findAndModify's `value`).
 */
export class StoredBson {
  constructor(readonly bson: string) {}
}

/** js-bson's `Binary.SUBTYPE_VECTOR`: validated by js-bson on the way out, so left to it. */
const SUBTYPE_VECTOR = 9;
const TWO_PWR_32 = 4294967296;

// ---------------------------------------------------------------------------------------------
// The size walk.

/** UTF-8 byte length of `s` (ASCII counted in JS; anything else by Node). */
function utf8Length(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, 'utf8');
  return s.length;
}

/**
 * The BSON size in bytes of `doc` (4-byte length, elements, terminator), or -1 when it holds a
 * value outside Mayfly's representation (js-bson must then measure or write it).
 */
export function documentSize(doc: Document): number {
  if (doc instanceof StoredBson) return storedSize(doc.bson);
  return docSize(doc, 0);
}

function docSize(doc: Document, depth: number): number {
  let size = 5;
  for (const key in doc) {
    const v = valueSize(doc[key], depth);
    if (v < 0) return -1;
    size += 2 + utf8Length(key) + v;
  }
  return size;
}

/** Bytes of an array (keys '0', '1', ...), or -1. */
function arraySize(arr: unknown[], depth: number): number {
  let size = 5;
  for (let i = 0; i < arr.length; i++) {
    const v = valueSize(arr[i], depth);
    if (v < 0) return -1;
    size += 2 + decimalDigits(i) + v;
  }
  return size;
}

/** Digits of the array index `i` (its key). */
function decimalDigits(i: number): number {
  if (i < 10) return 1;
  if (i < 100) return 2;
  if (i < 1000) return 3;
  if (i < 10000) return 4;
  return String(i).length;
}

/** Bytes of a value's payload (after its type byte and name), or -1 when js-bson must measure it. */
function valueSize(v: unknown, depth: number): number {
  switch (typeof v) {
    case 'number':
      return isInt32Number(v) ? 4 : 8;
    case 'string':
      return 5 + utf8Length(v);
    case 'boolean':
      return 1;
    case 'undefined':
      return 0;
    case 'object':
      break;
    default:
      return -1;
  }
  if (v === null) return 0;
  if (depth >= MAX_WALK_DEPTH) return -1;
  if (Array.isArray(v)) return arraySize(v, depth + 1);
  const proto: unknown = Object.getPrototypeOf(v);
  // The common prototypes before the general checks, which give the same answers for them.
  if (proto === Object.prototype) return docSize(v as Document, depth + 1);
  if (proto === Double.prototype) return 8;
  if (proto === ObjectId.prototype) return 12;
  if (proto === StoredBson.prototype) return storedSize((v as StoredBson).bson);
  if (v instanceof Date) return 8;
  if (proto === null) return docSize(v as Document, depth + 1);
  switch (bsonTag(v)) {
    case 'ObjectId':
      return 12;
    case 'Long':
    case 'Double':
    case 'Timestamp':
      return 8;
    case 'Decimal128':
      return 16;
    case 'MinKey':
    case 'MaxKey':
      return 0;
    case 'Binary': {
      const b = v as Binary;
      return b.sub_type === Binary.SUBTYPE_BYTE_ARRAY ? 9 + b.position : 5 + b.position;
    }
    case 'BSONRegExp': {
      const r = v as BSONRegExp;
      return utf8Length(r.pattern) + 1 + utf8Length(r.options) + 1;
    }
    default:
      return -1;
  }
}

// ---------------------------------------------------------------------------------------------
// The writer. Each function takes the offset to write at and returns the offset after what it
// wrote; the buffer is module state, set and cleared by `encodeDocumentInto` (nothing the writer
// calls calls back into it).

const EMPTY = Buffer.alloc(0);
let out: Buffer = EMPTY;

/** Thrown inside the writer for a value js-bson must write (or refuse); caught at the entry. */
const FALLBACK: unique symbol = Symbol('bson_encode.fallback');

// A double is written by storing it here and copying its 8 bytes (reversed on a big-endian host).
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;

/**
 * Writes `doc` at `offset` of `target`, which must have room for `documentSize(doc)` bytes (a
 * non-negative size: call it first). Returns the offset after the document, or -1 when the
 * document holds something only js-bson may write or refuse; what was written is then garbage
 * and the caller serialises the whole document with js-bson instead.
 */
export function encodeDocumentInto(doc: Document, target: Uint8Array, offset: number): number {
  return encodeInto(doc, target, offset, false);
}

/** `encodeDocumentInto`, with the `_id` field first when `idFirst`. */
function encodeInto(doc: Document, target: Uint8Array, offset: number, idFirst: boolean): number {
  const proto: unknown = Object.getPrototypeOf(doc);
  if (proto !== Object.prototype && proto !== null) return -1;
  out = Buffer.isBuffer(target) ? target : Buffer.from(target.buffer, target.byteOffset, target.byteLength);
  try {
    return writeDocument(doc, offset, idFirst);
  } catch (err) {
    if (err === FALLBACK) return -1;
    throw err;
  } finally {
    // Do not keep the reply alive past the call.
    out = EMPTY;
  }
}

/**
 * `doc` serialised into a new buffer of `before + size + after` bytes, at offset `before` (the
 * room around it is left for the caller: a message header, a checksum). Written by the encoder
 * above when it can, else by js-bson (same bytes, or js-bson's error).
 */
export function encodeDocument(doc: Document, before = 0, after = 0): Buffer {
  const size = documentSize(doc);
  if (size >= 0) {
    const target = Buffer.allocUnsafe(before + size + after);
    if (encodeDocumentInto(doc, target, before) === before + size) return target;
  }
  const bytes = serializeViaJsBson(doc);
  const target = Buffer.allocUnsafe(before + bytes.length + after);
  target.set(bytes, before);
  return target;
}

let storeScratch: Buffer = Buffer.allocUnsafe(4096);

/** The largest `maxSize` of `encodeStored` that is written without measuring (the scratch grows to it). */
const UNMEASURED_MAX_SIZE = 1 << 20;

/**
 * The stored form of `doc`, which must have an `_id`, modified at `modifiedAtMs`: the form in
 * which a collection keeps its documents (src/bson_decode.ts, "Stored documents"), read back by
 * `decodeStored`. Its BSON, `_id` first as mongod stores it, is written by the encoder above when
 * it can, else by js-bson. `maxSize`, when the caller knows that the BSON is no larger (up to
 * 1 MiB), saves measuring it first.
 */
export function encodeStored(doc: Document, modifiedAtMs: number, maxSize = Number.POSITIVE_INFINITY): string {
  if (!Object.hasOwn(doc, '_id')) throw new Error('a stored document must have an _id');
  // The BSON is written at 4, so that its `_id` value (at 13) follows the byte at 12, where its
  // type is copied; the time overwrites the terminator.
  let total: number;
  if (maxSize <= UNMEASURED_MAX_SIZE) {
    room(maxSize);
    total = encodeInto(doc, storeScratch, 4, true) - 4;
    if (total < 0) total = storeViaJsBson(doc);
  } else {
    total = documentSize(doc);
    if (total >= 0) room(total);
    if (total < 0 || encodeInto(doc, storeScratch, 4, true) !== 4 + total) total = storeViaJsBson(doc);
  }
  storeScratch[12] = storeScratch[8]!;
  return latin1(storeScratch, 12, writeTime(storeScratch, modifiedAtMs, 4 + total - 1));
}

/**
 * The stored form `bson` with its top-level fields `fields` (never `_id`) changed to what
 * `values` holds, modified at `modifiedAtMs`: what an update that changed only those fields
 * stores. A field of `fields` that `values` lacks is removed; one it holds keeps its place, or
 * follows the others when it is new (in `values`' order). Every other field is copied as it is,
 * never decoded. `values` holds no field outside `fields`.
 */
export function patchStored(bson: string, fields: readonly string[], values: Document, modifiedAtMs: number): string {
  const valuesSize = documentSize(values);
  if (valuesSize >= 0) {
    // The old bytes at 0 of the scratch buffer, the new form written after them.
    const n = bson.length;
    room(2 * n + valuesSize);
    const b = storeScratch;
    b.write(bson, 0, 'latin1');
    out = b;
    try {
      let p = n;
      let copyFrom = 0;
      const placed = fields.map(() => false);
      storedElements(bson, fields, (name, start, end) => {
        if (name === undefined) return;
        p += b.copy(b, p, copyFrom, start);
        copyFrom = end;
        const i = fields.indexOf(name);
        if (placed[i] || !Object.hasOwn(values, name)) return;
        p = writeValue(values[name], p, writeCString(name, p + 1));
        placed[i] = true;
      });
      p += b.copy(b, p, copyFrom, n - STORED_TIME_CHARS);
      for (const name in values) {
        if (!placed[fields.indexOf(name)]) p = writeValue(values[name], p, writeCString(name, p + 1));
      }
      return latin1(b, n, writeTime(b, modifiedAtMs, p));
    } catch (err) {
      if (err !== FALLBACK) throw err;
    } finally {
      out = EMPTY;
    }
  }
  // A value only js-bson writes: the whole document, changed in place, is stored again.
  const doc = decodeStored(bson);
  for (const name of fields) if (!Object.hasOwn(values, name)) delete doc[name];
  for (const name of Object.keys(values)) Object.defineProperty(doc, name, { value: values[name], writable: true, enumerable: true, configurable: true });
  return encodeStored(doc, modifiedAtMs);
}

/** Writes a stored form's modification time `ms` at `p` of `target` (float64 LE); returns the end. */
function writeTime(target: Buffer, ms: number, p: number): number {
  if (BIG_ENDIAN) target.writeDoubleLE(ms, p);
  else {
    F64[0] = ms;
    for (let i = 0; i < 8; i++) target[p + i] = F64_BYTES[i]!;
  }
  return p + 8;
}

/** Node's `Buffer#latin1Slice`, which `toString('latin1', start, end)` reaches through two wrappers. */
type Latin1Slicer = { latin1Slice?: (start: number, end: number) => string };

/** `buf.toString('latin1', start, end)`, called directly (~70 ns less per stored document). */
const latin1: (buf: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as Latin1Slicer).latin1Slice === 'function'
    ? (buf, start, end) => (buf as Latin1Slicer).latin1Slice!(start, end)
    : (buf, start, end) => buf.toString('latin1', start, end);

/** Writes `doc`'s BSON, `_id` first, at 4 of the scratch buffer with js-bson; returns its size. */
function storeViaJsBson(doc: Document): number {
  const rest: Document = { ...doc };
  delete rest._id;
  const id = serializeViaJsBson({ _id: doc._id });
  const others = serializeViaJsBson(rest);
  const total = id.length + others.length - 5;
  room(total);
  // The `_id` document without its terminator, then the others' elements and terminator.
  storeScratch.set(id.subarray(0, id.length - 1), 4);
  storeScratch.set(others.subarray(4), 4 + id.length - 1);
  storeScratch.writeInt32LE(total, 4);
  return total;
}

/** Grows the scratch buffer of `encodeStored` to hold a document of `size` bytes. */
function room(size: number): void {
  if (storeScratch.length < size + 12) storeScratch = Buffer.allocUnsafe(Math.max(size + 12, storeScratch.length * 2));
}

function writeInt32(n: number, p: number): number {
  const b = out;
  b[p] = n;
  b[p + 1] = n >>> 8;
  b[p + 2] = n >>> 16;
  b[p + 3] = n >>> 24;
  return p + 4;
}

function writeDouble(d: number, p: number): number {
  if (BIG_ENDIAN) return out.writeDoubleLE(d, p);
  F64[0] = d;
  const b = out;
  const s = F64_BYTES;
  b[p] = s[0]!;
  b[p + 1] = s[1]!;
  b[p + 2] = s[2]!;
  b[p + 3] = s[3]!;
  b[p + 4] = s[4]!;
  b[p + 5] = s[5]!;
  b[p + 6] = s[6]!;
  b[p + 7] = s[7]!;
  return p + 8;
}

/** Up to this many characters, a string is copied char by char while it is ASCII. */
const SHORT_STRING = 24;

/** A field name or regex part: its UTF-8 bytes and a NUL; one holding a NUL is left to js-bson. */
function writeCString(s: string, start: number): number {
  const b = out;
  let p = start;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c > 0x7f) {
      if (s.indexOf('\u0000') !== -1) throw FALLBACK;
      p = start + b.write(s, start);
      break;
    }
    b[p++] = c;
  }
  b[p] = 0;
  return p + 1;
}

/** A string value: int32 length (bytes + NUL), its UTF-8 bytes, a NUL. */
function writeString(s: string, at: number): number {
  const b = out;
  const start = at + 4;
  let p = start;
  const n = s.length;
  if (n <= SHORT_STRING) {
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) {
        p = start + b.write(s, start);
        break;
      }
      b[p++] = c;
    }
  } else {
    p = start + b.write(s, start);
  }
  b[p] = 0;
  writeInt32(p + 1 - start, at);
  return p + 1;
}

/**
 * Elements of a plain object in key order, framed by its length and terminator; with
 * `idFirst`, its `_id` first (JS orders integer-like keys before every other, and mongod stores
 * `_id` first).
 */
function writeDocument(doc: Document, start: number, idFirst = false): number {
  let p = start + 4;
  if (idFirst) p = writeValue(doc._id, p, writeCString('_id', p + 1));
  for (const key in doc) {
    if (idFirst && key === '_id') continue;
    p = writeValue(doc[key], p, writeCString(key, p + 1));
  }
  return finish(start, p);
}

/** Elements of an array, named '0', '1', ... */
function writeArray(arr: unknown[], start: number): number {
  const b = out;
  let p = start + 4;
  for (let i = 0; i < arr.length; i++) {
    let q: number;
    if (i < 10) {
      b[p + 1] = 0x30 + i;
      q = p + 2;
    } else {
      // The key's digits, written from the last.
      q = p + 1 + decimalDigits(i);
      let d = q;
      for (let n = i; n > 0; n = (n / 10) | 0) b[--d] = 0x30 + (n % 10);
    }
    b[q] = 0;
    p = writeValue(arr[i], p, q + 1);
  }
  return finish(start, p);
}

/** Writes the terminator at `p` and the length of the document or array opened at `start`. */
function finish(start: number, p: number): number {
  out[p] = 0;
  writeInt32(p + 1 - start, start);
  return p + 1;
}

/** Writes the type byte of `v` at `typeAt` and its payload at `p`; returns the offset after it. */
function writeValue(v: unknown, typeAt: number, p: number): number {
  const b = out;
  switch (typeof v) {
    case 'string':
      b[typeAt] = 0x02;
      return writeString(v, p);
    case 'number':
      // Int32: integral, within int32, not -0 (`isInt32Number`, inlined).
      if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
        b[typeAt] = 0x10;
        return writeInt32(v, p);
      }
      b[typeAt] = 0x01;
      return writeDouble(v, p);
    case 'boolean':
      b[typeAt] = 0x08;
      b[p] = v ? 1 : 0;
      return p + 1;
    case 'undefined':
      b[typeAt] = 0x0a;
      return p;
    case 'object':
      if (v === null) {
        b[typeAt] = 0x0a;
        return p;
      }
      return writeObject(v, typeAt, p);
    default:
      throw FALLBACK;
  }
}

function writeObject(v: object, typeAt: number, p: number): number {
  const b = out;
  if (Array.isArray(v)) {
    b[typeAt] = 0x04;
    return writeArray(v, p);
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype) {
    b[typeAt] = 0x03;
    return writeDocument(v as Document, p);
  }
  if (proto === Double.prototype) {
    b[typeAt] = 0x01;
    return writeDouble((v as Double).value, p);
  }
  if (proto === ObjectId.prototype) {
    b[typeAt] = 0x07;
    return writeObjectId(v as ObjectId, p);
  }
  if (proto === StoredBson.prototype) {
    b[typeAt] = 0x03;
    return writeStoredBson((v as StoredBson).bson, b, p);
  }
  if (v instanceof Date) {
    b[typeAt] = 0x09;
    const ms = v.getTime();
    // js-bson writes an invalid Date as `Long.fromNumber(NaN)`: zero.
    if (ms !== ms) return writeInt32(0, writeInt32(0, p));
    return writeInt32(Math.floor(ms / TWO_PWR_32), writeInt32(ms % TWO_PWR_32, p));
  }
  if (proto === null) {
    b[typeAt] = 0x03;
    return writeDocument(v as Document, p);
  }
  return writeBsonValue(v, typeAt, p);
}

/** The other `bson` classes of the representation; anything else is left to js-bson. */
function writeBsonValue(v: object, typeAt: number, p: number): number {
  const b = out;
  if (v instanceof Long) {
    // A Timestamp is a Long (low word: increment, high word: time).
    b[typeAt] = v instanceof Timestamp ? 0x11 : 0x12;
    return writeInt32(v.high, writeInt32(v.low, p));
  }
  if (v instanceof Binary) {
    b[typeAt] = 0x05;
    return writeBinary(v, p);
  }
  if (v instanceof Decimal128) {
    b[typeAt] = 0x13;
    const bytes = v.bytes;
    for (let i = 0; i < 16; i++) b[p + i] = bytes[i]!;
    return p + 16;
  }
  if (v instanceof ObjectId) {
    b[typeAt] = 0x07;
    return writeObjectId(v, p);
  }
  if (v instanceof Double) {
    b[typeAt] = 0x01;
    return writeDouble(v.value, p);
  }
  if (v instanceof BSONRegExp) {
    b[typeAt] = 0x0b;
    return writeRegExp(v, p);
  }
  if (v instanceof MinKey) {
    b[typeAt] = 0xff;
    return p;
  }
  if (v instanceof MaxKey) {
    b[typeAt] = 0x7f;
    return p;
  }
  throw FALLBACK;
}

function writeObjectId(oid: ObjectId, p: number): number {
  const w = oid as unknown as ObjectIdWords;
  const b = out;
  if (typeof w.i3 === 'number') {
    const { i0, i1, i2, i3 } = w;
    b[p] = i0 >>> 16;
    b[p + 1] = i0 >>> 8;
    b[p + 2] = i0;
    b[p + 3] = i1 >>> 16;
    b[p + 4] = i1 >>> 8;
    b[p + 5] = i1;
    b[p + 6] = i2 >>> 16;
    b[p + 7] = i2 >>> 8;
    b[p + 8] = i2;
    b[p + 9] = i3 >>> 16;
    b[p + 10] = i3 >>> 8;
    b[p + 11] = i3;
  } else {
    b.set(oid.id.subarray(0, 12), p);
  }
  return p + 12;
}

function writeBinary(bin: Binary, at: number): number {
  const subType = bin.sub_type;
  if (subType === SUBTYPE_VECTOR) throw FALLBACK;
  const size = bin.position;
  const b = out;
  let p: number;
  if (subType === Binary.SUBTYPE_BYTE_ARRAY) {
    // The old binary layout: the outer length counts an inner int32 length.
    p = writeInt32(size + 4, at);
    b[p] = subType;
    p = writeInt32(size, p + 1);
  } else {
    p = writeInt32(size, at);
    b[p++] = subType;
  }
  const data = bin.buffer;
  if (size <= 16) {
    for (let i = 0; i < size; i++) b[p + i] = data[i]!;
  } else {
    b.set(size === data.length ? data : data.subarray(0, size), p);
  }
  return p + size;
}

function writeRegExp(r: BSONRegExp, at: number): number {
  const b = out;
  let p = writeCString(r.pattern, at);
  // js-bson writes the options sorted (by UTF-16 unit); only ASCII ones are sorted here.
  const options = r.options;
  let sorted = true;
  for (let i = 0; i < options.length; i++) {
    const c = options.charCodeAt(i);
    if (c > 0x7f) throw FALLBACK;
    if (i > 0 && c < options.charCodeAt(i - 1)) sorted = false;
  }
  const written = sorted ? options : options.split('').sort().join('');
  for (let i = 0; i < written.length; i++) b[p++] = written.charCodeAt(i);
  b[p] = 0;
  return p + 1;
}
