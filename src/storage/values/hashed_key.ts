/**
 * mongod's hashed index key (mongo/src/mongo/db/hasher.cpp, `BSONElementHasher::hash64`): the
 * MD5 of the seed (an Int32, 0 for hashed indexes) then, recursively, each element's canonical
 * type as an Int32, for nested elements their name with its NUL, and the value: numbers squashed
 * to an Int64 (`safeNumberLong`), documents and arrays as their elements in turn (the closing
 * EOO included), anything else as its BSON value bytes. The key is the digest's first eight
 * bytes as a little-endian Int64. Works on the value's BSON encoding, so every type hashes from
 * the bytes mongod sees.
 */
import { createHash, type Hash } from 'node:crypto';
import { Decimal128, Long, type Document } from '../../bson/library.js';
import { serialize } from '../../bson/encode.js';
import { safeNumberLong } from './numeric.js';

/** Canonical type per BSON type byte (`canonicalizeBSONType`; EOO and undefined are 0). */
function canonicalType(type: number): number {
  switch (type) {
    case 0x00:
    case 0x06:
      return 0;
    case 0xff:
      return -1;
    case 0x7f:
      return 127;
    case 0x0a:
      return 5;
    case 0x01:
    case 0x10:
    case 0x12:
    case 0x13:
      return 10;
    case 0x02:
    case 0x0e:
      return 15;
    case 0x03:
      return 20;
    case 0x04:
      return 25;
    case 0x05:
      return 30;
    case 0x07:
      return 35;
    case 0x08:
      return 40;
    case 0x09:
      return 45;
    case 0x11:
      return 47;
    case 0x0b:
      return 50;
    case 0x0c:
      return 55;
    case 0x0d:
      return 60;
    case 0x0f:
      return 65;
    default:
      throw new Error(`unknown BSON type ${type}`);
  }
}

function cstringEnd(buf: Buffer, at: number): number {
  let i = at;
  while (buf[i] !== 0) i++;
  return i + 1;
}

/** The size of the value of a `type` element whose value starts at `at`. */
function valueSize(buf: Buffer, type: number, at: number): number {
  switch (type) {
    case 0x00:
    case 0x06:
    case 0x0a:
    case 0xff:
    case 0x7f:
      return 0;
    case 0x08:
      return 1;
    case 0x10:
      return 4;
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      return 8;
    case 0x07:
      return 12;
    case 0x13:
      return 16;
    case 0x02:
    case 0x0d:
    case 0x0e:
      return 4 + buf.readInt32LE(at);
    case 0x05:
      return 5 + buf.readInt32LE(at);
    case 0x03:
    case 0x04:
    case 0x0f:
      return buf.readInt32LE(at);
    case 0x0b:
      return cstringEnd(buf, cstringEnd(buf, at)) - at;
    case 0x0c:
      return 4 + buf.readInt32LE(at) + 12;
    default:
      throw new Error(`unknown BSON type ${type}`);
  }
}

function numberAt(buf: Buffer, type: number, at: number): unknown {
  switch (type) {
    case 0x01:
      return buf.readDoubleLE(at);
    case 0x10:
      return buf.readInt32LE(at);
    case 0x12:
      return Long.fromBigInt(buf.readBigInt64LE(at));
    default:
      return new Decimal128(Buffer.from(buf.subarray(at, at + 16)));
  }
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

/** Hashes the element at `at` (`recursiveHash`); returns the offset after it. */
function hashElement(h: Hash, buf: Buffer, at: number, includeName: boolean): number {
  const type = buf[at]!;
  h.update(int32(canonicalType(type)));
  const nameEnd = type === 0x00 ? at + 1 : cstringEnd(buf, at + 1);
  if (includeName) h.update(type === 0x00 ? Buffer.alloc(1) : buf.subarray(at + 1, nameEnd));
  if (type === 0x00) return at + 1;
  const size = valueSize(buf, type, nameEnd);
  if (type === 0x03 || type === 0x04 || type === 0x0f) {
    // A document or array: its elements, EOO included (a code-with-scope: its scope).
    let p = type === 0x0f ? nameEnd + 4 + 4 + buf.readInt32LE(nameEnd + 4) + 4 : nameEnd + 4;
    for (;;) {
      const isEnd = buf[p] === 0;
      p = hashElement(h, buf, p, true);
      if (isEnd) break;
    }
  } else if (type === 0x01 || type === 0x10 || type === 0x12 || type === 0x13) {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(safeNumberLong(numberAt(buf, type, nameEnd)) ?? 0n);
    h.update(b);
  } else {
    h.update(buf.subarray(nameEnd, nameEnd + size));
  }
  return nameEnd + size;
}

/** The hashed index key of `v` (`BSONElementHasher::hash64`, seed 0). */
export function hashedIndexKey(v: unknown): Long {
  const buf = serialize({ '': v } as Document);
  const h = createHash('md5');
  h.update(int32(0));
  hashElement(h, buf, 4, false);
  return Long.fromBigInt(h.digest().readBigInt64LE(0));
}
