/**
 * The stored form of a document: how a collection keeps each document, as its BSON bytes in a
 * latin1 string (one byte per character: the cheapest byte container V8 has, 16 bytes of
 * header), in a compact layout written by `encodeStored`:
 *
 *   [type of _id] [_id value] [the other elements] [modification time: float64 LE, 8 bytes]
 *
 * The document's first element is always its `_id`: its name, the document's length and its
 * terminating NUL are not kept (9 bytes less), and the record's modification time rides along.
 * Reading one rebuilds the BSON in a scratch buffer and decodes it there (the codec's
 * `openScratch`, src/bson/decode.ts); a filter that reads a few top-level fields walks the
 * string itself and decodes only those. An update of a few top-level fields patches the string
 * (`patchStored`); a reply splices it as BSON bytes (`StoredBson`), never decoding it.
 */
import {
  closeScratch,
  failDecode,
  openScratch,
  readScratchDocument,
  readScratchValue,
} from '../bson/decode.js';
import { documentSize, encodeElementInto, encodeIdFirstInto } from '../bson/encode.js';
import { EncodedDocument, makeDouble, serializeViaJsBson, type Document } from '../bson/library.js';

const TWO_PWR_32 = 4294967296;
// A double is read and written through these 8 bytes (reversed on a big-endian host).
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;

/**
 * A stored document written into a reply as its BSON bytes instead of being decoded and encoded
 * again (the encoder splices it: `EncodedDocument` of src/bson/library.ts).
 */
export class StoredBson extends EncodedDocument {
  constructor(readonly bson: string) {
    super();
  }
  bsonSize(): number {
    return storedSize(this.bson);
  }
  writeBson(target: Buffer, offset: number): number {
    return writeStoredBson(this.bson, target, offset);
  }
  decode(): Document {
    return decodeStored(this.bson);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading.
//   [type of _id] [_id value] [the other elements] [modification time: float64 LE, 8 bytes]
//
// The document's first element is always its `_id`: its name, the document's length and its
// terminating NUL are not kept (9 bytes less), and the record's modification time rides along.
// Reading one rebuilds the BSON in a scratch buffer and decodes it there; a filter that reads a
// few top-level fields walks the string itself and decodes only those.

/** Characters of the modification time at the end of a stored document. */
export const STORED_TIME_CHARS = 8;
/** Where a stored document's `_id` value starts (after its type byte). */
export const STORED_ID_VALUE_AT = 1;
/** BSON bytes a stored document leaves out (length, `_id` name and NUL, terminator). */
const STORED_OMITTED = 9;

/** The BSON size of the stored document `bson`. */
export function storedSize(bson: string): number {
  return bson.length - STORED_TIME_CHARS + STORED_OMITTED;
}

/** The modification time kept with the stored document `bson` (ms since the epoch). */
export function storedTime(bson: string): number {
  return storedDouble(bson, bson.length - STORED_TIME_CHARS);
}

/** The little-endian double at `p` of the stored document `bson`. */
function storedDouble(bson: string, p: number): number {
  const b = F64_BYTES;
  for (let i = 0; i < 8; i++) b[BIG_ENDIAN ? 7 - i : i] = bson.charCodeAt(p + i);
  return F64[0]!;
}

/**
 * Writes the BSON of the stored document `bson` at `offset` of `target` (which has room for its
 * `storedSize`); returns the offset after it.
 */
export function writeStoredBson(bson: string, target: Buffer, offset: number): number {
  const size = storedSize(bson);
  // Type and the other bytes land from offset + 8, then the header is written over the type.
  target.write(bson, offset + 8, bson.length - STORED_TIME_CHARS, 'latin1');
  target[offset] = size;
  target[offset + 1] = size >>> 8;
  target[offset + 2] = size >>> 16;
  target[offset + 3] = size >>> 24;
  target[offset + 4] = bson.charCodeAt(0);
  target[offset + 5] = 95; // _
  target[offset + 6] = 105; // i
  target[offset + 7] = 100; // d
  target[offset + 8] = 0;
  target[offset + size - 1] = 0;
  return offset + size;
}

let stored: Buffer = Buffer.allocUnsafe(4096);

/** Rebuilds the stored document `bson` as BSON in the scratch buffer; returns its size. */
function loadStored(bson: string): number {
  const size = storedSize(bson);
  if (stored.length < size) stored = Buffer.allocUnsafe(Math.max(size, stored.length * 2));
  writeStoredBson(bson, stored, 0);
  openScratch(stored);
  return size;
}

/** Resets the module state after decoding a stored document. */
function unloadStored(): void {
  closeScratch();
}

/** The document kept as the stored form `bson` (made by `encodeStored`). */
export function decodeStored(bson: string): Document {
  const size = loadStored(bson);
  try {
    return readScratchDocument(size);
  } finally {
    unloadStored();
  }
}

/** The name of the first element of every stored document. */
const ID_NAME = '_id';

/**
 * The top-level fields of the stored document `bson` named in `names`, in their stored order,
 * as a document: what a filter that reads only those fields sees of it. The walk reads the
 * string itself, stepping over the other elements; a wanted int32, double, date, boolean,
 * null or ASCII string is read there too, and any other value is decoded from the BSON rebuilt
 * in the scratch buffer.
 */
export function decodeStoredFields(bson: string, names: readonly string[]): Document {
  const doc: Document = {};
  let wanted = names.length;
  const end = bson.length - STORED_TIME_CHARS;
  rebuiltSize = -1;
  try {
    // The `_id` element: its type at 0, its value from 1 (its name is not stored).
    let type = bson.charCodeAt(0);
    let p = STORED_ID_VALUE_AT;
    if (wanted > 0 && names.includes(ID_NAME)) {
      doc._id = fieldValue(bson, type, p);
      wanted--;
    }
    p = storedValueEnd(bson, type, p);
    while (wanted > 0 && p < end) {
      type = bson.charCodeAt(p);
      const nameStart = p + 1;
      let nameEnd = nameStart;
      while (bson.charCodeAt(nameEnd) !== 0) nameEnd++;
      const name = wantedName(bson, nameStart, nameEnd, names);
      p = nameEnd + 1;
      if (name === undefined) {
        p = storedValueEnd(bson, type, p);
        continue;
      }
      const value = fieldValue(bson, type, p);
      if (name === '__proto__') Object.defineProperty(doc, name, { value, writable: true, enumerable: true, configurable: true });
      else doc[name] = value;
      p = storedValueEnd(bson, type, p);
      wanted--;
    }
    return doc;
  } finally {
    if (rebuiltSize >= 0) unloadStored();
  }
}

/**
 * Reads the top-level fields `names` of the stored document `bson` into `out`: `out[i]` is the
 * value of `names[i]` (as `decodeStoredFields` reads it), or `absent` when the document has no
 * such field. What a reader of a few fields of many documents uses (`$group` over a collection
 * scan): no document is made, the names are matched as they are stored, and the walk stops once
 * every name is found. `names` holds no name twice.
 */
export function readStoredFields(bson: string, names: readonly string[], out: unknown[], absent: unknown): void {
  const count = names.length;
  for (let i = 0; i < count; i++) out[i] = absent;
  let wanted = count;
  const end = bson.length - STORED_TIME_CHARS;
  rebuiltSize = -1;
  try {
    // The `_id` element: its type at 0, its value from 1 (its name is not stored).
    let type = bson.charCodeAt(0);
    let p = STORED_ID_VALUE_AT;
    if (wanted > 0) {
      const at = names.indexOf(ID_NAME);
      if (at >= 0) {
        out[at] = fieldValue(bson, type, p);
        wanted--;
      }
    }
    p = storedValueEnd(bson, type, p);
    while (wanted > 0 && p < end) {
      type = bson.charCodeAt(p);
      const nameStart = p + 1;
      let nameEnd = nameStart;
      while (bson.charCodeAt(nameEnd) !== 0) nameEnd++;
      p = nameEnd + 1;
      const at = wantedIndex(bson, nameStart, nameEnd, names);
      if (at >= 0 && out[at] === absent) {
        out[at] = fieldValue(bson, type, p);
        wanted--;
      }
      p = storedValueEnd(bson, type, p);
    }
  } finally {
    if (rebuiltSize >= 0) unloadStored();
  }
}

/**
 * The value of the top-level field `name` (ASCII) of the stored document `bson` as an ordering
 * reads it (a sort key): `decodeStoredField`'s value, except that a double is a plain number,
 * which orders as the Double does (its BSON type is not kept: for comparisons only); undefined
 * when the document has no such field.
 */
export function storedFieldForOrder(bson: string, name: string): unknown {
  const p = seekStoredField(bson, name);
  if (p < 0) return undefined;
  const type = seekType;
  if (type === 0x10) return storedInt32(bson, p);
  if (type === 0x01) return storedDouble(bson, p);
  rebuiltSize = -1;
  try {
    return fieldValue(bson, type, p);
  } finally {
    if (rebuiltSize >= 0) unloadStored();
  }
}

/** What `storedValue` answers for a value it leaves to the decoder. */
const REBUILD: unique symbol = Symbol('record_format.rebuild');

/**
 * The size of the BSON `decodeStoredFields` rebuilt in the scratch buffer (once per call, for
 * the values the string walk does not read itself); -1 until it does.
 */
let rebuiltSize = -1;

/** The value of type `type` at `p` of the stored document `bson` (`decodeStoredFields`). */
function fieldValue(bson: string, type: number, p: number): unknown {
  const value = storedValue(bson, type, p);
  if (value !== REBUILD) return value;
  if (rebuiltSize < 0) rebuiltSize = loadStored(bson);
  // A stored character at p (p >= 1) is at p + 8 of the rebuilt BSON.
  return readScratchValue(type, p + 8, rebuiltSize);
}

/** The BSON type of the value `seekStoredField` found last. */
let seekType = 0;

/**
 * Where the value of the top-level field `name` (ASCII) of the stored document `bson` starts,
 * its type left in `seekType`; -1 when the document has no such field. The names are compared
 * as they are stored, without making strings of them.
 */
function seekStoredField(bson: string, name: string): number {
  let type = bson.charCodeAt(0);
  let p = STORED_ID_VALUE_AT;
  if (name !== ID_NAME) {
    const end = bson.length - STORED_TIME_CHARS;
    const len = name.length;
    p = storedValueEnd(bson, type, p);
    for (;;) {
      if (p >= end) return -1;
      type = bson.charCodeAt(p);
      let i = 0;
      while (i < len && bson.charCodeAt(p + 1 + i) === name.charCodeAt(i)) i++;
      let nameEnd = p + 1 + i;
      if (i === len && bson.charCodeAt(nameEnd) === 0) {
        p = nameEnd + 1;
        break;
      }
      while (bson.charCodeAt(nameEnd) !== 0) nameEnd++;
      p = storedValueEnd(bson, type, nameEnd + 1);
    }
  }
  seekType = type;
  return p;
}

/**
 * The value of the top-level field `name` (ASCII) of the stored document `bson`, or undefined
 * when it has none: `decodeStoredFields` for one field, without a document to hold it.
 */
export function decodeStoredField(bson: string, name: string): unknown {
  const p = seekStoredField(bson, name);
  if (p < 0) return undefined;
  rebuiltSize = -1;
  try {
    return fieldValue(bson, seekType, p);
  } finally {
    if (rebuiltSize >= 0) unloadStored();
  }
}

/**
 * Whether the top-level field `name` (ASCII) of the stored document `bson` equals `value` (an
 * ASCII string, or a number other than NaN) under a query's `$eq`, when its bytes tell: false
 * when the field is missing or holds a value of another kind, the comparison for a string or an
 * int32 or double; undefined when a full test must tell (an array, whose elements may match; a
 * symbol, an int64 or a decimal, which compare across types).
 */
export function storedFieldEquals(bson: string, name: string, value: string | number): boolean | undefined {
  const p = seekStoredField(bson, name);
  if (p < 0) return false; // missing: not equal to a string or a number
  const type = seekType;
  switch (type) {
    case 0x04: // an array: its elements
    case 0x0e: // a symbol equals a string
    case 0x12: // int64 and decimal compare with numbers exactly: the full test
    case 0x13:
      return undefined;
    case 0x02: {
      if (typeof value !== 'string') return false;
      const start = p + 4;
      if (storedInt32(bson, p) - 1 !== value.length) return false;
      for (let i = 0; i < value.length; i++) if (bson.charCodeAt(start + i) !== value.charCodeAt(i)) return false;
      return true;
    }
    case 0x10:
      return typeof value === 'number' && storedInt32(bson, p) === value;
    case 0x01:
      return typeof value === 'number' && storedDouble(bson, p) === value;
    default:
      return false;
  }
}

/**
 * Visits the top-level elements of the stored document `bson` after its `_id`, in order: each
 * element's name when it is one of `names` (else undefined), and where it starts and ends.
 */
export function storedElements(bson: string, names: readonly string[], visit: (name: string | undefined, start: number, end: number) => void): void {
  const end = bson.length - STORED_TIME_CHARS;
  let p = storedValueEnd(bson, bson.charCodeAt(0), STORED_ID_VALUE_AT);
  while (p < end) {
    const type = bson.charCodeAt(p);
    let nameEnd = p + 1;
    while (bson.charCodeAt(nameEnd) !== 0) nameEnd++;
    const elementEnd = storedValueEnd(bson, type, nameEnd + 1);
    visit(wantedName(bson, p + 1, nameEnd, names), p, elementEnd);
    p = elementEnd;
  }
}

/** The name of `names` spelled by `bson[start, end)`, or undefined. */
function wantedName(bson: string, start: number, end: number, names: readonly string[]): string | undefined {
  const at = wantedIndex(bson, start, end, names);
  return at < 0 ? undefined : names[at];
}

/** The index in `names` of the name spelled by `bson[start, end)`, or -1. */
function wantedIndex(bson: string, start: number, end: number, names: readonly string[]): number {
  const len = end - start;
  for (let n = 0; n < names.length; n++) {
    const name = names[n]!;
    if (name.length !== len) continue;
    let i = 0;
    while (i < len && name.charCodeAt(i) === bson.charCodeAt(start + i)) i++;
    if (i === len) return n;
  }
  // A name holding non-ASCII characters is compared decoded (its UTF-8 bytes are chars here).
  for (let i = start; i < end; i++) {
    if (bson.charCodeAt(i) > 127) return names.indexOf(Buffer.from(bson.slice(start, end), 'latin1').toString('utf8'));
  }
  return -1;
}

/** The little-endian int32 at `p` of the stored document `bson`. */
export function storedInt32(bson: string, p: number): number {
  return bson.charCodeAt(p) | (bson.charCodeAt(p + 1) << 8) | (bson.charCodeAt(p + 2) << 16) | (bson.charCodeAt(p + 3) << 24);
}

/**
 * The value of type `type` at `p` of the stored document `bson`, read from the string, or
 * REBUILD for one the decoder must read from the rebuilt BSON.
 */
function storedValue(bson: string, type: number, p: number): unknown {
  switch (type) {
    case 0x10:
      return storedInt32(bson, p);
    case 0x08:
      return bson.charCodeAt(p) === 1;
    case 0x0a:
      return null;
    case 0x01:
      return makeDouble(storedDouble(bson, p));
    case 0x09:
      return new Date(storedInt32(bson, p + 4) * TWO_PWR_32 + (storedInt32(bson, p) >>> 0));
    case 0x02: {
      const start = p + 4;
      const end = start + storedInt32(bson, p) - 1;
      let i = start;
      while (i < end && bson.charCodeAt(i) < 128) i++;
      if (i === end) return bson.slice(start, end);
      break;
    }
  }
  return REBUILD;
}

/** Where the value of type `type` at `p` of the stored document `bson` ends. */
function storedValueEnd(bson: string, type: number, p: number): number {
  switch (type) {
    case 0x06:
    case 0x0a:
    case 0xff:
    case 0x7f:
      return p;
    case 0x08:
      return p + 1;
    case 0x10:
      return p + 4;
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      return p + 8;
    case 0x07:
      return p + 12;
    case 0x13:
      return p + 16;
    case 0x02:
    case 0x0d:
    case 0x0e:
      return p + 4 + storedInt32(bson, p);
    case 0x03:
    case 0x04:
    case 0x0f:
      return p + storedInt32(bson, p);
    case 0x05:
      return p + 5 + storedInt32(bson, p);
    case 0x0b:
      return bson.indexOf('\0', bson.indexOf('\0', p) + 1) + 1;
    case 0x0c:
      return p + 4 + storedInt32(bson, p) + 12;
    default:
      return failDecode(`Detected unknown BSON type ${type.toString(16)} in a stored document`);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing.

let storeScratch: Buffer = Buffer.allocUnsafe(4096);

/** The largest `maxSize` of `encodeStored` that is written without measuring (the scratch grows to it). */
const UNMEASURED_MAX_SIZE = 1 << 20;

/**
 * The stored form of `doc`, which must have an `_id`, modified at `modifiedAtMs`: the form in
 * which a collection keeps its documents (this file's header), read back by
 * `decodeStored`. Its BSON, `_id` first as mongod stores it, is written by the encoder when
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
    total = encodeIdFirstInto(doc, storeScratch, 4) - 4;
    if (total < 0) total = storeViaJsBson(doc);
  } else {
    total = documentSize(doc);
    if (total >= 0) room(total);
    if (total < 0 || encodeIdFirstInto(doc, storeScratch, 4) !== 4 + total) total = storeViaJsBson(doc);
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
    let p = n;
    let copyFrom = 0;
    const placed = fields.map(() => false);
    storedElements(bson, fields, (name, start, end) => {
      if (name === undefined || p < 0) return;
      p += b.copy(b, p, copyFrom, start);
      copyFrom = end;
      const i = fields.indexOf(name);
      if (placed[i] || !Object.hasOwn(values, name)) return;
      p = encodeElementInto(name, values[name], b, p);
      placed[i] = true;
    });
    if (p >= 0) {
      p += b.copy(b, p, copyFrom, n - STORED_TIME_CHARS);
      for (const name in values) {
        if (p < 0) break;
        if (!placed[fields.indexOf(name)]) p = encodeElementInto(name, values[name], b, p);
      }
      if (p >= 0) return latin1(b, n, writeTime(b, modifiedAtMs, p));
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
