/**
 * A BSON encoder over Mayfly's value representation (library.ts header), the twin of the
 * one-pass decoder (decode.ts).
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
  bsonSizeViaJsBson,
  bsonTag,
  Binary,
  EncodedDocument,
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
} from './library.js';

/** Nesting deeper than this is measured as -1 (js-bson then serialises it or finds the cycle). */
export const MAX_WALK_DEPTH = 1000;

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
  if (doc instanceof EncodedDocument) return doc.bsonSize();
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
  if (v instanceof EncodedDocument) return v.bsonSize();
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
const FALLBACK: unique symbol = Symbol('encode.fallback');

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

/**
 * Serialises a document; `_id` is not generated and key order is kept. Written by the encoder
 * above, byte for byte what js-bson writes; a value outside the representation hands the whole
 * document to js-bson.
 */
export function serialize(doc: Document): Buffer {
  return encodeDocument(doc);
}

/**
 * The BSON size in bytes of `doc`. Measured by one walk over the value representation
 * (`documentSize`: every returned document and every updated one is measured); a value outside
 * it (Code, a JS RegExp, a Buffer, an Int32 wrapper, an object with a prototype, ...) hands the
 * whole document to js-bson's `calculateObjectSize`, which the fast walk matches exactly (see
 * its unit test).
 */
export function bsonSize(doc: Document): number {
  const size = documentSize(doc);
  return size >= 0 ? size : bsonSizeViaJsBson(doc);
}

/**
 * Writes `doc` at `offset` of `target` with its `_id` element first (as mongod stores a
 * document), `target` having room for `documentSize(doc)` bytes; returns the offset after it,
 * or -1 when only js-bson may write the document (what was written is then garbage).
 */
export function encodeIdFirstInto(doc: Document, target: Uint8Array, offset: number): number {
  return encodeInto(doc, target, offset, true);
}

/**
 * Writes one element, `name: value`, at `offset` of `target` (which has room for it); returns
 * the offset after it, or -1 when only js-bson may write the value.
 */
export function encodeElementInto(name: string, value: unknown, target: Buffer, offset: number): number {
  out = target;
  try {
    return writeValue(value, offset, writeCString(name, offset + 1));
  } catch (err) {
    if (err === FALLBACK) return -1;
    throw err;
  } finally {
    out = EMPTY;
  }
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
  if (v instanceof EncodedDocument) {
    b[typeAt] = 0x03;
    return v.writeBson(b, p);
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
