/**
 * Stored documents (src/storage/record_format.ts): a collection
 * keeps each document in a compact stored form (its BSON without length, `_id` name and
 * terminator, one byte per character of a latin1 string, then its modification time), reads it
 * back whole (`decodeStored`) or only the top-level fields a filter reads
 * (`decodeStoredFields`), and splices it into replies (`StoredBson`). Checked on thousands of
 * seeded random documents of every BSON type against the request decoder and the encoder.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Code, Long, type Document } from '../../../src/bson/library.js';
import { decodeStored, decodeStoredField, decodeStoredFields, encodeStored, StoredBson, storedSize, storedTime, writeStoredBson } from '../../../src/storage/record_format.js';
import { deserialize } from '../../../src/bson/decode.js';
import { serialize, documentSize, encodeDocument } from '../../../src/bson/encode.js';
import { bson, el } from '../wire/fixtures.js';
import { differences, elem, Gen, str } from './random_bson.js';

/** `doc` restricted to `names`, in its own order (what a partial decode must give). */
function restricted(doc: Document, names: readonly string[]): Document {
  const out: Document = {};
  for (const key of Object.keys(doc)) {
    if (!names.includes(key)) continue;
    Object.defineProperty(out, key, { value: doc[key], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** A random document of every BSON type, `_id` first (as every stored document is). */
function randomDocument(gen: Gen, i: number): Document {
  return { _id: i, ...deserialize(gen.document(0, 8)) };
}

/** The BSON a stored form stands for. */
function bsonOf(stored: string): Buffer {
  const out = Buffer.alloc(storedSize(stored));
  expect(writeStoredBson(stored, out, 0)).toBe(out.length);
  return out;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/**
 * True when JS enumerates a key of `doc` before its `_id` (integer-like keys come first): its
 * stored BSON has `_id` first and so differs in order from `serialize(doc)`.
 */
const reordered = (doc: Document): boolean => Object.keys(doc)[0] !== '_id';
const TIMES = [0, 1700000000123, -5, 2 ** 53, 1.5];

describe('stored documents', () => {
  it('stand for the bytes the encoder writes, keep their time, and decode as the request decoder does', () => {
    const gen = new Gen(20261130);
    for (let i = 0; i < 3000; i++) {
      const doc = randomDocument(gen, i);
      const time = TIMES[i % TIMES.length]!;
      const stored = encodeStored(doc, time);
      const bytes = serialize(doc);
      expect(stored.length).toBe(bytes.length - 1); // 9 bytes left out, 8 of time added
      expect(storedSize(stored)).toBe(bytes.length);
      if (!reordered(doc)) expect(hex(bsonOf(stored))).toBe(hex(bytes));
      expect(storedTime(stored)).toBe(time);
      expect(differences(decodeStored(stored), deserialize(bytes))).toEqual([]);
      expect(differences(decodeStored(stored), deserialize(bsonOf(stored)))).toEqual([]);
    }
  });

  it('decode only the named top-level fields, in stored order, equal to the whole decode', () => {
    const gen = new Gen(99);
    let partial = 0;
    for (let i = 0; i < 3000; i++) {
      const stored = encodeStored(randomDocument(gen, i), 0);
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

  it('decode one top-level field (ASCII name) as the whole decode has it, undefined when missing', () => {
    const gen = new Gen(99);
    let found = 0;
    for (let i = 0; i < 3000; i++) {
      const stored = encodeStored(randomDocument(gen, i), 0);
      const whole = decodeStored(stored);
      const ascii = Object.keys(whole).filter((k) => /^[\x01-\x7f]*$/.test(k));
      for (const name of [...ascii, 'missing', 'ttl', '_id']) {
        const got = decodeStoredField(stored, name);
        if (Object.hasOwn(whole, name)) {
          expect(differences({ v: got }, { v: whole[name] })).toEqual([]);
          found++;
        } else expect(got).toBeUndefined();
      }
    }
    expect(found).toBeGreaterThan(6000);
  });

  it('tell a field from a longer or shorter name sharing its start', () => {
    const stored = encodeStored({ _id: 1, tt: 'short', ttlx: 'long', ttl: 30, after: 'x' }, 0);
    expect(decodeStoredField(stored, 'ttl')).toBe(30);
    expect(decodeStoredField(stored, 'tt')).toBe('short');
    expect(decodeStoredField(stored, 'ttlx')).toBe('long');
    expect(decodeStoredField(stored, 't')).toBeUndefined();
    expect(decodeStoredField(stored, '_id')).toBe(1);
    // A value the string walk leaves to the decoder (a long) is read from the rebuilt BSON.
    expect(decodeStoredField(encodeStored({ _id: 1, ttl: Long.fromNumber(20), z: 1 }, 0), 'ttl')).toEqual(Long.fromNumber(20));
  });

  it('read every kind of _id, alone or with other fields', () => {
    for (const id of [7, 'héllo', 'abc', { a: [1, { b: 2 }] }, new Binary(Buffer.from([1, 2])), Long.fromNumber(3), null]) {
      const stored = encodeStored({ _id: id, x: 1 }, 0);
      expect(differences(decodeStoredFields(stored, ['_id']), { _id: id })).toEqual([]);
      expect(differences(decodeStoredFields(stored, ['x', '_id']), { _id: id, x: 1 })).toEqual([]);
      expect(decodeStoredFields(stored, ['x'])).toEqual({ x: 1 });
    }
  });

  it('put _id first, also before the integer-like keys JS enumerates first', () => {
    // JS orders the object as '0', 'a', '_id'; mongod stores `_id` first.
    const stored = encodeStored({ a: 1, _id: 2, '0': 3 }, 0);
    expect(hex(bsonOf(stored))).toBe(hex(bson(el.int32('_id', 2), el.int32('0', 3), el.int32('a', 1))));
    // The same through js-bson's path (a Code value is written by js-bson).
    const viaJsBson = encodeStored({ a: new Code('f()'), _id: 2, '1': 'x' }, 0);
    expect(hex(bsonOf(viaJsBson))).toBe(hex(bson(el.int32('_id', 2), el.string('1', 'x'), elem(0x0d, 'a', str('f()')))));
  });

  it('refuse a document without _id', () => {
    expect(() => encodeStored({ a: 1 }, 0)).toThrow('a stored document must have an _id');
  });

  it('read a field named __proto__ as an own field', () => {
    const doc: Document = { _id: 1 };
    Object.defineProperty(doc, '__proto__', { value: { x: 2 }, writable: true, enumerable: true, configurable: true });
    const got = decodeStoredFields(encodeStored(doc, 0), ['__proto__']);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')!.value).toEqual({ x: 2 });
  });

  it('read non-ASCII names and strings through UTF-8', () => {
    const stored = encodeStored({ _id: 1, héllo: 'wörld', '😀': '日本語', plain: 'ascii' }, 0);
    expect(decodeStoredFields(stored, ['héllo', '😀'])).toStrictEqual({ héllo: 'wörld', '😀': '日本語' });
    expect(decodeStoredFields(stored, ['plain'])).toStrictEqual({ plain: 'ascii' });
  });

  it('give Binary values of their own, not views on a reused buffer', () => {
    const first = decodeStored(encodeStored({ _id: 1, b: new Binary(Buffer.from([1, 2, 3])) }, 0));
    decodeStored(encodeStored({ _id: 2, b: new Binary(Buffer.from([9, 9, 9, 9, 9, 9, 9, 9])) }, 0));
    decodeStoredFields(encodeStored({ _id: 3, c: 0, b: new Binary(Buffer.from([7, 7, 7])) }, 0), ['b']);
    expect(hex((first.b as Binary).value())).toBe('010203');
  });
});

describe('a stored document in a reply', () => {
  it('is spliced as the same bytes the decoded document would be written as', () => {
    const gen = new Gen(5);
    for (let i = 0; i < 1000; i++) {
      const doc = randomDocument(gen, i);
      if (reordered(doc)) continue; // covered by 'put _id first, ...'
      const stored = encodeStored(doc, 1);
      const reply = (batch: unknown[]): Document => ({ cursor: { firstBatch: batch, id: Long.ZERO, ns: 'db.c' }, ok: 1 });
      const spliced = reply([new StoredBson(stored), { n: 1 }, new StoredBson(stored)]);
      const decoded = reply([decodeStored(stored), { n: 1 }, decodeStored(stored)]);
      expect(hex(encodeDocument(spliced))).toBe(hex(serialize(decoded)));
      expect(documentSize(spliced)).toBe(serialize(decoded).length);
    }
  });

  it('is decoded for js-bson when the reply holds a value only js-bson writes', () => {
    const stored = encodeStored({ _id: 1, a: 'x' }, 0);
    const reply = { cursor: { firstBatch: [new StoredBson(stored)], code: new Code('f()') }, ok: 1 };
    const expected = serialize({ cursor: { firstBatch: [{ _id: 1, a: 'x' }], code: new Code('f()') }, ok: 1 });
    expect(hex(serialize(reply as unknown as Document))).toBe(hex(expected));
  });

  it('measures as its BSON size', () => {
    const stored = encodeStored({ _id: 1, a: 'xyz' }, 0);
    expect(documentSize(new StoredBson(stored) as unknown as Document)).toBe(serialize({ _id: 1, a: 'xyz' }).length);
  });
});

describe('a stored field compared with a string or a number', () => {
  it('answers as $eq does on the decoded document, or leaves it to the full test', async () => {
    const { compileFilter, predicateStoredTest } = await import('../../../src/storage/query/compile_filter.js');
    const gen = new Gen(31);
    const values: Array<string | number> = ['', 'a', 'user', 'x'.repeat(40), 0, -0, 1, -1, 1.5, 2147483648, Infinity, 12];
    let answered = 0;
    let left = 0;
    for (let i = 0; i < 2000; i++) {
      const doc = randomDocument(gen, i);
      const stored = encodeStored(doc, 0);
      const whole = decodeStored(stored);
      const names = [...Object.keys(whole), 'missing', '_id'];
      const name = gen.pick(names);
      if ([...name].some((c) => c.charCodeAt(0) > 127) || name.includes('.') || name.startsWith('$')) continue;
      const value = gen.pick(values);
      const predicate = compileFilter({ [name]: value });
      const test = predicateStoredTest(predicate);
      expect(test).not.toBeNull();
      const answer = test!(stored);
      if (answer === undefined) left++;
      else {
        answered++;
        expect(answer, `${JSON.stringify(name)} = ${String(value)} in document ${i}`).toBe(predicate(whole));
      }
    }
    expect(answered).toBeGreaterThan(1000);
    expect(left).toBeGreaterThan(10);
  });

  it('is offered only for an ASCII top-level name, an ASCII string or a number, without a collation', async () => {
    const { compileFilter, predicateStoredTest } = await import('../../../src/storage/query/compile_filter.js');
    expect(predicateStoredTest(compileFilter({ a: 'x' }))).not.toBeNull();
    expect(predicateStoredTest(compileFilter({ a: 5 }))).not.toBeNull();
    expect(predicateStoredTest(compileFilter({ 'a.b': 'x' }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ a: 'é' }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ é: 'x' }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ a: NaN }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ a: true }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ a: 'x', b: 1 }))).toBeNull();
    expect(predicateStoredTest(compileFilter({ a: { $gt: 1 } }))).toBeNull();
  });
});
