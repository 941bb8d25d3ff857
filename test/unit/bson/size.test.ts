/**
 * `bsonSize` (one walk over Mayfly's value representation) against js-bson's
 * `calculateObjectSize` and against the bytes `serialize` writes, on thousands of random
 * documents of every BSON type and on hand-picked values.
 */
import { describe, expect, it } from 'vitest';
import { Binary, BSONRegExp, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID, calculateObjectSize, type Document } from '../../../src/bson/library.js';
import { bsonSize, serialize } from '../../../src/bson/encode.js';
import { deserialize } from '../../../src/bson/decode.js';
import { Gen } from './random_bson.js';

const reference = (doc: Document): number => calculateObjectSize(doc, { ignoreUndefined: false });

describe('bsonSize', () => {
  it('equals js-bson and the serialised length on 5,000 random documents of every type', () => {
    const gen = new Gen(424242);
    for (let i = 0; i < 5000; i++) {
      const doc = deserialize(gen.document(0, 8));
      const size = bsonSize(doc);
      if (size !== reference(doc) || size !== serialize(doc).length) {
        throw new Error(`document ${i}: bsonSize ${size}, js-bson ${reference(doc)}, serialised ${serialize(doc).length}`);
      }
    }
  });

  it.each([
    ['int32 and double numbers', { a: 1, b: -2147483648, c: 2147483648, d: 1.5, e: -0, f: NaN, g: new Double(3) }],
    ['strings, ASCII and not', { s: '', t: 'user1', u: 'héllo 日本語 😀', 'ключ': 'x' }],
    ['booleans, null, undefined', { t: true, f: false, n: null, u: undefined }],
    ['nested arrays and documents with more than ten elements', { a: Array.from({ length: 12 }, (_, i) => ({ i, s: String(i) })), d: { e: { f: [[1], []] } } }],
    ['BSON classes', { o: new ObjectId(), l: Long.fromNumber(5), dec: Decimal128.fromString('1.5'), ts: new Timestamp({ t: 1, i: 2 }), min: new MinKey(), max: new MaxKey(), when: new Date(0) }],
    ['binaries, the old subtype 2 included, and a UUID', { b: new Binary(Buffer.from([1, 2, 3]), 0), old: new Binary(Buffer.from([1, 2, 3]), 2), u: new UUID() }],
    ['a BSON regex', { r: new BSONRegExp('^h[é]llo$', 'im') }],
    ['values handed to js-bson (Code, Int32 wrapper, JS RegExp)', { c: new Code('x', { y: 1 }), i: new Int32(5), r: /a+b/i }],
  ])('%s', (_name, doc) => {
    expect(bsonSize(doc)).toBe(reference(doc));
    expect(bsonSize(doc)).toBe(serialize(doc).length);
  });
});
