/**
 * A BSON decoder that produces Mayfly's value representation (library.ts header) in one pass.
 *
 * It replaces `bson.deserialize` with `promoteValues: false` followed by a walk that unwrapped
 * every `Int32` and `Double`: here an Int32 becomes a number straight away and a Double is
 * wrapped only when it must be (`makeDouble`). Every other value is built with the same `bson`
 * class and constructor arguments js-bson's deserializer uses (Long, Decimal128, ObjectId,
 * Binary/UUID, Timestamp, BSONRegExp, Code, BSONSymbol, MinKey, MaxKey, Date), keys named
 * `__proto__` become own properties as js-bson makes them, and key strings are decoded as
 * js-bson does (lossy for field names and regexes, validated UTF-8 for string values).
 *
 * Two places differ from the old path on purpose:
 *   - DBRef-shaped subdocuments (`{$ref, $id, $db?}`) stay exactly as sent; the old path went
 *     through js-bson's `DBRef` and back, which reordered the fields, dropped an empty `$db` and
 *     split a `$ref` holding one dot into `$db` and `$ref`.
 *   - Nesting deeper than mongod's 200 levels is refused with Overflow (15), as mongod's
 *     `validateBSON` does on every request.
 * A `Code` scope and a DBPointer keep exactly what js-bson gives (Int32/Double wrappers and
 * `DBRef` instances inside the scope; a DBPointer becomes the plain `{$ref, $id, $db?}` the old
 * walk made of js-bson's `DBRef`).
 *
 * Malformed input throws `BSONDecodeError`: the texts of js-bson's checks where it has them
 * (one is pinned by the wire tests), mongod's where the check is new (an element running past
 * its enclosing document).
 */
import { TextDecoder } from 'node:util';
import {
  Binary,
  BSONError,
  BSONRegExp,
  BSONSymbol,
  Code,
  DBRef,
  Decimal128,
  Double,
  Int32,
  isInt32Number,
  Long,
  makeDouble,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
  type Document,
} from './library.js';
import { ErrorCodes } from '../errors/codes.js';

/** A malformed BSON document; `code` is what mongod answers (InvalidBSON unless said otherwise). */
export class BSONDecodeError extends BSONError {
  readonly code: number;

  constructor(message: string, code: number = ErrorCodes.InvalidBSON) {
    super(message);
    this.code = code;
  }
}

/** mongod's default `BSONDepth::getMaxAllowableDepth()`: levels of nesting below the root. */
export const MAX_BSON_DEPTH = 200;

const TWO_PWR_32 = 4294967296;
const EMPTY = Buffer.alloc(0);
const NO_DOC: Document = Object.freeze({});
// A double is read by copying its 8 bytes here, reversed on a big-endian host.
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const BIG_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
const DBREF_KEY = /^\$ref$|^\$id$|^\$db$/;

// The document being decoded. Module state instead of arguments: `deserialize` is not
// re-entrant (nothing it calls calls back into it) and resets all of it on every call.
let buf: Buffer = EMPTY;
let pos = 0;
/** The root object under construction (for the `_id` of an error's context). */
let rootDoc: Document = NO_DOC;
/** Start offset of the field name that opened each nesting level (for an error's context). */
const openedBy: number[] = [];
/** How many Code scopes enclose the current position (DBPointers stay `DBRef`s inside). */
let scopeDepth = 0;
/**
 * True while decoding a request: a Binary is then a view on the request's bytes, as js-bson makes
 * it. A stored document is decoded from a shared scratch buffer, so its Binary values are copies.
 */
let binaryViews = true;

let fatalDecoder: TextDecoder | undefined;

function fail(message: string): never {
  throw new BSONDecodeError(message);
}

/** The little-endian double at `p` (on a little-endian host). */
function doubleAt(p: number): number {
  const b = F64_BYTES;
  b[0] = buf[p]!;
  b[1] = buf[p + 1]!;
  b[2] = buf[p + 2]!;
  b[3] = buf[p + 3]!;
  b[4] = buf[p + 4]!;
  b[5] = buf[p + 5]!;
  b[6] = buf[p + 6]!;
  b[7] = buf[p + 7]!;
  return F64[0]!;
}

function int32At(p: number): number {
  return buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24);
}

/** Up to this many bytes, an ASCII string is built char by char (faster than Buffer's decoder). */
const SHORT_STRING = 10;

/**
 * A field name (or regex part) from `start` to `end`: decoded without UTF-8 validation, invalid
 * sequences becoming U+FFFD, as js-bson decodes them.
 */
function lossyString(start: number, end: number): string {
  if (end - start <= SHORT_STRING) {
    let s = '';
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      if (b > 127) return buf.toString('utf8', start, end);
      s += String.fromCharCode(b);
    }
    return s;
  }
  return buf.toString('utf8', start, end);
}

// Field names repeat across documents: recently decoded short ASCII names are kept by a hash
// of their bytes and reused after a byte-for-byte check, which saves building the string and
// V8 interning it again when it becomes a property key.
const NAME_CACHE_SLOTS = 1024;
const nameCache: string[] = new Array<string>(NAME_CACHE_SLOTS).fill('\u0000');

/** The field name at `start` (a C string ending before `limit`); leaves `pos` after it. */
function readName(start: number, limit: number): string {
  let i = start;
  let h = 0;
  let high = 0;
  let b: number;
  while ((b = buf[i]!) !== 0) {
    h = (Math.imul(h, 31) + b) | 0;
    high |= b;
    i++;
  }
  if (i >= limit) fail('Bad BSON Document: illegal CString');
  pos = i + 1;
  const len = i - start;
  if (high > 127 || len > 32) return lossyString(start, i);
  const slot = (h ^ (h >>> 10)) & (NAME_CACHE_SLOTS - 1);
  const cached = nameCache[slot]!;
  if (cached.length === len) {
    let j = 0;
    while (j < len && cached.charCodeAt(j) === buf[start + j]) j++;
    if (j === len) return cached;
  }
  const name = lossyString(start, i);
  nameCache[slot] = name;
  return name;
}

/** A string value from `start` to `end`, refused unless it is valid UTF-8. */
function validString(start: number, end: number): string {
  if (end - start <= SHORT_STRING) {
    let s = '';
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      if (b > 127) return checkedUtf8(start, end);
      s += String.fromCharCode(b);
    }
    return s;
  }
  return checkedUtf8(start, end);
}

function checkedUtf8(start: number, end: number): string {
  const s = buf.toString('utf8', start, end);
  // Invalid sequences decode to U+FFFD; only then is the strict (slower) decoder needed.
  if (s.indexOf('\uFFFD') !== -1) {
    fatalDecoder ??= new TextDecoder('utf8', { fatal: true });
    try {
      fatalDecoder.decode(buf.subarray(start, end));
    } catch {
      fail('Invalid UTF-8 string in BSON document');
    }
  }
  return s;
}

/** End (exclusive) of the C string starting at `start`, which must end before `limit`. */
function cstringEnd(start: number, limit: number): number {
  let i = start;
  while (buf[i] !== 0) i++;
  if (i >= limit) fail('Bad BSON Document: illegal CString');
  return i;
}

/** Reads a length-prefixed string's bounds at `pos` (js-bson's checks); returns its end. */
function stringEnd(limit: number): number {
  const size = int32At(pos);
  pos += 4;
  if (size <= 0 || size > limit - pos || buf[pos + size - 1] !== 0) fail('bad string length in bson');
  return pos + size - 1;
}

function needs(n: number, limit: number): void {
  if (pos + n > limit) fail('BSON element value extends past the end of the buffer');
}

/**
 * Parses one BSON document from `bytes` (which must be exactly its length) into Mayfly's
 * representation. Throws `BSONDecodeError` (or `BSONError` from a `bson` constructor) when the
 * bytes are not valid BSON.
 */
export function deserialize(bytes: Uint8Array): Document {
  if (bytes.length < 5) fail('corrupt bson message < 5 bytes long');
  const size = bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24);
  if (size < 5) fail(`bson size must be >= 5, is ${size}`);
  if (bytes.length !== size) fail(`buffer length ${bytes.length} must === bson size ${size}`);
  if (bytes[size - 1] !== 0) fail("One object, sized correctly, with a spot for an EOO, but the EOO isn't 0x00");
  buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  pos = 4;
  scopeDepth = 0;
  try {
    return readDocument(size, 0);
  } finally {
    // Do not keep the request's bytes alive past the call.
    buf = EMPTY;
    rootDoc = NO_DOC;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding in place from a buffer of the storage layer: a collection keeps its documents in a
// compact form of its own (src/storage/record_format.ts) and rebuilds a document's BSON in a
// scratch buffer to read it; these calls decode there, with Binary values copied (the buffer is
// reused). Between `openScratch` and `closeScratch`, nothing else may decode.

/** Starts decoding the BSON document at 0 of `bytes` (length and terminator already in place). */
export function openScratch(bytes: Buffer): void {
  buf = bytes;
  pos = 4;
  scopeDepth = 0;
  binaryViews = false;
}

/** The whole document opened by `openScratch`, of `size` bytes. */
export function readScratchDocument(size: number): Document {
  pos = 4;
  return readDocument(size, 0);
}

/** The value of BSON type `type` starting at `at` of the opened document of `size` bytes. */
export function readScratchValue(type: number, at: number, size: number): unknown {
  pos = at;
  return readValue(type, '', 4, size - 1, 0);
}

/** Ends decoding from the buffer of `openScratch`. */
export function closeScratch(): void {
  buf = EMPTY;
  rootDoc = NO_DOC;
  binaryViews = true;
}

/** Throws what a malformed stored document gets: a `BSONDecodeError` with `message`. */
export function failDecode(message: string): never {
  return fail(message);
}

/** The elements from `pos` up to the terminator at `end - 1`, as a plain object. */
function readDocument(end: number, depth: number): Document {
  const doc: Document = {};
  if (depth === 0) rootDoc = doc;
  const limit = end - 1;
  let type: number;
  while ((type = buf[pos]!) !== 0) {
    const nameStart = pos + 1;
    const name = readName(nameStart, limit);
    const value = readValue(type, name, nameStart, limit, depth);
    if (name === '__proto__') {
      Object.defineProperty(doc, name, { value, writable: true, enumerable: true, configurable: true });
    } else {
      doc[name] = value;
    }
  }
  if (pos !== limit) fail('Bad BSON Document: object not properly terminated');
  pos = end;
  return doc;
}

/** The elements from `pos` up to the terminator at `end - 1`, as an array (names ignored). */
function readArray(end: number, depth: number): unknown[] {
  const arr: unknown[] = [];
  const limit = end - 1;
  let type: number;
  while ((type = buf[pos]!) !== 0) {
    const nameStart = pos + 1;
    pos = cstringEnd(nameStart, limit) + 1;
    arr.push(readValue(type, arr.length, nameStart, limit, depth));
  }
  if (pos !== limit) fail('corrupted array bson');
  pos = end;
  return arr;
}

/** Bounds of an embedded document or array at `pos`; returns its end and moves past its size. */
function embeddedEnd(limit: number, depth: number, nameStart: number, what: string): number {
  if (depth >= MAX_BSON_DEPTH) tooDeep(depth, nameStart);
  const size = int32At(pos);
  if (size < 5 || size > limit - pos) fail(`bad embedded ${what} length in bson`);
  const end = pos + size;
  if (buf[end - 1] !== 0) fail(what === 'array' ? 'corrupted array bson' : 'Bad BSON Document: object not properly terminated');
  openedBy[depth] = nameStart;
  pos += 4;
  return end;
}

/** The value of an element of `type` at `pos`, which must end by `limit`. */
function readValue(type: number, name: string | number, nameStart: number, limit: number, depth: number): unknown {
  switch (type) {
    case 0x01: {
      needs(8, limit);
      const d = BIG_ENDIAN ? buf.readDoubleLE(pos) : doubleAt(pos);
      pos += 8;
      return makeDouble(d);
    }
    case 0x02: {
      const end = stringEnd(limit);
      const s = validString(pos, end);
      pos = end + 1;
      return s;
    }
    case 0x03: {
      const end = embeddedEnd(limit, depth, nameStart, 'document');
      return readDocument(end, depth + 1);
    }
    case 0x04: {
      const end = embeddedEnd(limit, depth, nameStart, 'array');
      return readArray(end, depth + 1);
    }
    case 0x05:
      return readBinary(limit);
    case 0x06:
      return undefined;
    case 0x07: {
      needs(12, limit);
      const oid = objectIdAt(pos);
      pos += 12;
      return oid;
    }
    case 0x08: {
      needs(1, limit);
      const b = buf[pos++];
      if (b === 0) return false;
      if (b === 1) return true;
      return fail('illegal boolean type value');
    }
    case 0x09: {
      needs(8, limit);
      const ms = int32At(pos + 4) * TWO_PWR_32 + (int32At(pos) >>> 0);
      pos += 8;
      return new Date(ms);
    }
    case 0x0a:
      return null;
    case 0x0b: {
      const sourceEnd = cstringEnd(pos, limit);
      const source = lossyString(pos, sourceEnd);
      const optionsEnd = cstringEnd(sourceEnd + 1, limit);
      const options = lossyString(sourceEnd + 1, optionsEnd);
      pos = optionsEnd + 1;
      return new BSONRegExp(source, options);
    }
    case 0x0c:
      return readDBPointer(limit);
    case 0x0d: {
      const end = stringEnd(limit);
      const code = validString(pos, end);
      pos = end + 1;
      return new Code(code);
    }
    case 0x0e: {
      const end = stringEnd(limit);
      const symbol = validString(pos, end);
      pos = end + 1;
      return new BSONSymbol(symbol);
    }
    case 0x0f:
      return readCodeWithScope(limit, depth, nameStart);
    case 0x10: {
      needs(4, limit);
      const n = int32At(pos);
      pos += 4;
      return n;
    }
    case 0x11: {
      needs(8, limit);
      const ts = new Timestamp({ i: int32At(pos) >>> 0, t: int32At(pos + 4) >>> 0 });
      pos += 8;
      return ts;
    }
    case 0x12: {
      needs(8, limit);
      const long = new Long(int32At(pos), int32At(pos + 4));
      pos += 8;
      return long;
    }
    case 0x13: {
      needs(16, limit);
      const bytes = Buffer.allocUnsafe(16);
      buf.copy(bytes, 0, pos, pos + 16);
      pos += 16;
      return new Decimal128(bytes);
    }
    case 0xff:
      return new MinKey();
    case 0x7f:
      return new MaxKey();
    default:
      return fail(`Detected unknown BSON type ${type.toString(16)} for fieldname "${name}"`);
  }
}

/** js-bson's internal `new ObjectId(source, offset)`: the 12 bytes read in place, no copy. */
const ObjectIdAt = ObjectId as unknown as new (source: Uint8Array, offset: number) => ObjectId;
function probeObjectIdInPlace(): boolean {
  try {
    const probe = Buffer.from('00ff0102030405060708090a0b', 'hex');
    return new ObjectIdAt(probe, 1).toHexString() === 'ff0102030405060708090a0b';
  } catch {
    return false;
  }
}

/** Whether this `bson` has that constructor (else the public one, on a 12-byte view). */
const objectIdInPlace = probeObjectIdInPlace();

function objectIdAt(p: number): ObjectId {
  return objectIdInPlace ? new ObjectIdAt(buf, p) : new ObjectId(buf.subarray(p, p + 12));
}

function readBinary(limit: number): Binary {
  needs(5, limit);
  let size = int32At(pos);
  const subType = buf[pos + 4]!;
  pos += 5;
  if (size < 0) fail('Negative binary type element size found');
  if (size > limit - pos) fail('Binary type size larger than document size');
  if (subType === 0x02) {
    const total = size;
    if (total < 4) fail('Binary type with subtype 0x02 contains too short binary size');
    size = int32At(pos);
    pos += 4;
    if (size < 0) fail('Negative binary type element size found for subtype 0x02');
    if (size > total - 4) fail('Binary type with subtype 0x02 contains too long binary size');
    if (size < total - 4) fail('Binary type with subtype 0x02 contains too short binary size');
  }
  // Like js-bson, the value is a view on the request bytes, and a 16-byte subtype 4 a UUID.
  const data = binaryViews ? buf.subarray(pos, pos + size) : Buffer.from(buf.subarray(pos, pos + size));
  pos += size;
  return subType === 0x04 && size === 16 ? new UUID(data) : new Binary(data, subType);
}

function readDBPointer(limit: number): unknown {
  const end = stringEnd(limit);
  const namespace = validString(pos, end);
  pos = end + 1;
  needs(12, limit);
  const oidBytes = Buffer.allocUnsafe(12);
  buf.copy(oidBytes, 0, pos, pos + 12);
  pos += 12;
  const ref = new DBRef(namespace, new ObjectId(oidBytes));
  if (scopeDepth > 0) return ref;
  // What the old walk made of js-bson's DBRef (the namespace split at its only dot).
  const doc: Document = { $ref: ref.collection, $id: ref.oid };
  if (ref.db) doc.$db = ref.db;
  return doc;
}

function readCodeWithScope(limit: number, depth: number, nameStart: number): Code {
  // A code-with-scope takes two nesting levels in mongod's validator.
  if (depth + 2 > MAX_BSON_DEPTH) tooDeep(depth, nameStart);
  needs(4, limit);
  const totalSize = int32At(pos);
  pos += 4;
  if (totalSize < 4 + 4 + 4 + 1) fail('code_w_scope total size shorter minimum expected length');
  const codeEnd = stringEnd(limit);
  const code = validString(pos, codeEnd);
  const stringSize = codeEnd + 1 - pos;
  pos = codeEnd + 1;
  const scopeSize = int32At(pos);
  if (scopeSize < 5 || scopeSize > limit - pos) fail('bad scope document size in code_w_scope');
  if (totalSize < 4 + 4 + scopeSize + stringSize) fail('code_w_scope total size is too short, truncating scope');
  if (totalSize > 4 + 4 + scopeSize + stringSize) fail('code_w_scope total size is too long, clips outer document');
  const end = pos + scopeSize;
  if (buf[end - 1] !== 0) fail('Bad BSON Document: object not properly terminated');
  openedBy[depth] = nameStart;
  openedBy[depth + 1] = -1;
  pos += 4;
  scopeDepth++;
  try {
    return new Code(code, scopeAsJsBson(readDocument(end, depth + 2)));
  } finally {
    scopeDepth--;
  }
}

/**
 * A decoded scope in the shape js-bson gives it (the old walk never entered a `Code`): numbers
 * back in `Int32`/`Double` wrappers and DBRef-shaped subdocuments as `DBRef`s (not the scope
 * itself: js-bson does not look at it). Converted in place.
 */
function scopeAsJsBson(scope: Document): Document {
  for (const key of Object.keys(scope)) scope[key] = asJsBson(scope[key]);
  return scope;
}

function asJsBson(value: unknown): unknown {
  if (typeof value === 'number') return isInt32Number(value) ? new Int32(value) : new Double(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = asJsBson(value[i]);
    return value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const doc = scopeAsJsBson(value as Document);
  // js-bson's rule: every `$` name is $ref, $id or $db (and there is at least one), then
  // `isDBRefLike`: $id present and not null, $ref a string, $db absent or a string.
  let possible: boolean | null = null;
  for (const key of Object.keys(doc)) {
    if (possible !== false && key[0] === '$') possible = DBREF_KEY.test(key);
  }
  if (!possible) return doc;
  if (!('$id' in doc) || doc.$id == null || typeof doc.$ref !== 'string') return doc;
  if ('$db' in doc && typeof doc.$db !== 'string') return doc;
  const { $ref, $id, $db, ...fields } = doc;
  return new DBRef($ref as string, $id as ObjectId, $db as string | undefined, fields);
}

/**
 * Throws mongod's Overflow for nesting past `MAX_BSON_DEPTH`, with its context: the dotted
 * names of the enclosing elements and the root `_id` when it came before them.
 */
function tooDeep(depth: number, nameStart: number): never {
  const names: string[] = [];
  for (let d = 0; d < depth; d++) {
    const start = openedBy[d]!;
    if (start >= 0) names.push(lossyString(start, cstringEnd(start, buf.length)));
  }
  names.push(lossyString(nameStart, cstringEnd(nameStart, buf.length)));
  const id = Object.prototype.hasOwnProperty.call(rootDoc, '_id') ? describeId(rootDoc._id) : undefined;
  throw new BSONDecodeError(
    `BSONObj exceeds maximum nested object depth in element with field name '${names.join('.')}' in object with ${id === undefined ? 'unknown _id' : `_id: ${id}`}`,
    ErrorCodes.Overflow,
  );
}

/** An `_id` as mongod's `BSONElement::toString` writes the common kinds (else undefined). */
function describeId(id: unknown): string | undefined {
  if (typeof id === 'string') return JSON.stringify(id);
  if (typeof id === 'number') return Number.isInteger(id) && !Object.is(id, -0) && Math.abs(id) < 2 ** 31 ? String(id) : undefined;
  if (typeof id === 'boolean') return String(id);
  if (id === null) return 'null';
  if (id instanceof ObjectId) return `ObjectId('${id.toHexString()}')`;
  if (id instanceof Long) return id.toString();
  return undefined;
}
