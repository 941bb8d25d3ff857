/**
 * Stored documents (src/bson_decode.ts, src/bson_encode.ts): a collection keeps each document as
 * its BSON bytes in a latin1 string (`encodeStored`), reads it back whole (`decodeStored`) or
 * only the top-level fields a filter reads (`decodeStoredFields`), and splices it into replies
 * (`StoredBson`). Checked on thousands of seeded random documents of every BSON type against
 * the request decoder and encoder.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Code, decodeStored, decodeStoredFields, deserialize, encodeStored, Long, serialize, StoredBson, type Document } from '../../../src/bson.js';
import { documentSize, encodeDocument } from '../../../src/bson_encode.js';
import { differences, Gen } from './random_bson.js';

/** `doc` restricted to `names`, in its own order (what a partial decode must give). */
function restricted(doc: Document, names: readonly string[]): Document {
  const out: Document = {};
  for (const key of Object.keys(doc)) {
    if (!names.includes(key)) continue;
    Object.defineProperty(out, key, { value: doc[key], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('stored documents', () => {
  it('keep the bytes the encoder writes and decode to what the request decoder gives', () => {
    const gen = new Gen(20261130);
    for (let i = 0; i < 3000; i++) {
      const doc = deserialize(gen.document(0, 8));
      const stored = encodeStored(doc);
      expect(stored.length).toBe(documentSize(doc) >= 0 ? documentSize(doc) : serialize(doc).length);
      expect(hex(Buffer.from(stored, 'latin1'))).toBe(hex(serialize(doc)));
      expect(differences(decodeStored(stored), deserialize(Buffer.from(stored, 'latin1')))).toEqual([]);
    }
  });

  it('decode only the named top-level fields, in stored order, equal to the whole decode', () => {
    const gen = new Gen(99);
    let partial = 0;
    for (let i = 0; i < 3000; i++) {
      const stored = encodeStored(deserialize(gen.document(0, 8)));
      const whole = decodeStored(stored);
      const keys = Object.keys(whole);
      const names = keys.filter(() => gen.int(2) === 0);
      if (gen.int(3) === 0) names.push(gen.pick(['missing', 'héllo', '😀', '__proto__', 'a', 'x']));
      const got = decodeStoredFields(stored, names);
      expect(differences(got, restricted(whole, names))).toEqual([]);
      if (names.length > 0 && Object.keys(got).length < keys.length) partial++;
    }
    expect(partial).toBeGreaterThan(1000);
  });

  it('read a field named __proto__ as an own field', () => {
    const doc: Document = { a: 1 };
    Object.defineProperty(doc, '__proto__', { value: { x: 2 }, writable: true, enumerable: true, configurable: true });
    const got = decodeStoredFields(encodeStored(doc), ['__proto__']);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')!.value).toEqual({ x: 2 });
  });

  it('read non-ASCII names and strings through UTF-8', () => {
    const stored = encodeStored({ _id: 1, héllo: 'wörld', '😀': '日本語', plain: 'ascii' });
    expect(decodeStoredFields(stored, ['héllo', '😀'])).toStrictEqual({ héllo: 'wörld', '😀': '日本語' });
    expect(decodeStoredFields(stored, ['plain'])).toStrictEqual({ plain: 'ascii' });
  });

  it('give Binary values of their own, not views on a reused buffer', () => {
    const first = decodeStored(encodeStored({ b: new Binary(Buffer.from([1, 2, 3])) }));
    decodeStored(encodeStored({ b: new Binary(Buffer.from([9, 9, 9, 9, 9, 9, 9, 9])) }));
    decodeStoredFields(encodeStored({ c: 0, b: new Binary(Buffer.from([7, 7, 7])) }), ['b']);
    expect(hex((first.b as Binary).value())).toBe('010203');
  });
});

describe('a stored document in a reply', () => {
  it('is spliced as the same bytes the decoded document would be written as', () => {
    const gen = new Gen(5);
    for (let i = 0; i < 1000; i++) {
      const doc = deserialize(gen.document(0, 6));
      const stored = encodeStored(doc);
      const reply = (batch: unknown[]): Document => ({ cursor: { firstBatch: batch, id: Long.ZERO, ns: 'db.c' }, ok: 1 });
      const spliced = reply([new StoredBson(stored), { n: 1 }]);
      const decoded = reply([decodeStored(stored), { n: 1 }]);
      expect(hex(encodeDocument(spliced))).toBe(hex(serialize(decoded)));
      expect(documentSize(spliced)).toBe(serialize(decoded).length);
    }
  });

  it('is decoded for js-bson when the reply holds a value only js-bson writes', () => {
    const stored = encodeStored({ _id: 1, a: 'x' });
    const reply = { cursor: { firstBatch: [new StoredBson(stored)], code: new Code('f()') }, ok: 1 };
    const expected = serialize({ cursor: { firstBatch: [{ _id: 1, a: 'x' }], code: new Code('f()') }, ok: 1 });
    expect(hex(serialize(reply as unknown as Document))).toBe(hex(expected));
  });

  it('measures as its stored size', () => {
    const stored = encodeStored({ _id: 1, a: 'xyz' });
    expect(documentSize(new StoredBson(stored) as unknown as Document)).toBe(stored.length);
  });
});
