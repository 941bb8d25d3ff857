/**
 * `Collection.insert` with and without its fast path (an `_id` after every key of the `_id_`
 * index, or after the greatest `_id` offered while that index keeps no entries, needs no
 * lookup): duplicates found either way, expired holders replaced, collated `_id`s, capped
 * eviction, the `_id` map and `_id_` index kept in step, and documents written without being
 * measured when the message they came in bounds their size.
 */
import { describe, expect, test } from 'vitest';
import { BSONSymbol, Code, Decimal128, Double, Int32, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { decodeStored, encodeStored, storedSize } from '../../../src/storage/record_format.js';
import { deserialize } from '../../../src/bson/decode.js';
import { serialize } from '../../../src/bson/encode.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { BsonRecord, type StoredDocument } from '../../../src/storage/record.js';
import { Collection } from '../../../src/storage/collection.js';
import { normaliseCollation } from '../../../src/storage/indexes/collation.js';
import { treeEntries } from '../indexes/tree_entries.js';
import { Index } from '../../../src/storage/indexes/index.js';
import { WritePath } from '../../../src/storage/write/write_unit.js';

const NOW = 1_700_000_000_000;
const CI = normaliseCollation({ locale: 'en', strength: 2 })!;

/** The `_id`s in natural order. */
const ids = (coll: Collection): unknown[] => [...coll.allRecords()].map((r) => r.doc._id);

/** The `_id`s in `_id_` index order. */
const indexIds = (coll: Collection): unknown[] => treeEntries(coll.idIndex.tree).map(([id]) => id);

/** The error `fn` throws (fails the test when it throws none). */
function thrown(fn: () => unknown): CommandError {
  try {
    fn();
  } catch (err) {
    return err as CommandError;
  }
  throw new Error('nothing thrown');
}

/** Hides the records whose document has `expired: true` (what the TTL engine's check does) and collects the deletions. */
function hideExpired(coll: Collection, deleted: StoredDocument[]): void {
  coll.visibility = (rec) => rec.doc.expired !== true;
  coll.writes = new WritePath();
  coll.writes.observers.add({ onDelete: (event) => deleted.push(event.record) });
}

describe('Collection.insert', () => {
  test('increasing _ids: every one stored, in order, in the map and the _id_ index', () => {
    const coll = new Collection('d', 'c');
    for (let i = 1; i <= 200; i++) coll.insert({ _id: i, k: i }, NOW);
    expect(coll.storedCount).toBe(200);
    expect(coll.idIndex.tree.size).toBe(200);
    expect(indexIds(coll)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(coll.getById('n150', NOW)!.doc).toEqual({ _id: 150, k: 150 });
  });

  test('a duplicate of the last, an earlier or a numerically equal _id is refused (11000)', () => {
    const coll = new Collection('d', 'c');
    for (let i = 1; i <= 100; i++) coll.insert({ _id: i }, NOW);
    const cases: Array<[unknown, string]> = [
      [100, '100'],
      [50, '50'],
      [1, '1'],
      [new Double(100), '100.0'],
      [new Long(100), '100'],
      [new Int32(7), '7'],
    ];
    for (const [_id, shown] of cases) {
      const err = thrown(() => coll.insert({ _id }, NOW));
      expect([err.code, err.message]).toEqual([11000, `E11000 duplicate key error collection: d.c index: _id_ dup key: { _id: ${shown} }`]);
    }
    expect([coll.storedCount, coll.idIndex.tree.size]).toEqual([100, 100]);
  });

  test('values equal to the last _id in another form are duplicates: NaN, -0, Decimal128, symbol', () => {
    const cases: Array<[unknown, unknown]> = [
      [NaN, new Double(NaN)],
      [0, -0],
      [1.5, Decimal128.fromString('1.50')],
      ['s', new BSONSymbol('s')],
      [new Long(3), Decimal128.fromString('3')],
    ];
    for (const [first, again] of cases) {
      const coll = new Collection('d', 'c');
      coll.insert({ _id: first }, NOW);
      expect(thrown(() => coll.insert({ _id: again }, NOW)).code).toBe(11000);
      expect(coll.storedCount).toBe(1);
    }
  });

  test('an _id of a later type (strings after numbers), then a duplicate of it', () => {
    const coll = new Collection('d', 'c');
    coll.insert({ _id: 5 }, NOW);
    coll.insert({ _id: 'a' }, NOW);
    coll.insert({ _id: 1 }, NOW);
    expect(thrown(() => coll.insert({ _id: 'a' }, NOW)).code).toBe(11000);
    expect(ids(coll)).toEqual([5, 'a', 1]);
    expect(indexIds(coll)).toEqual([1, 5, 'a']);
  });

  test('ObjectIds: increasing ones, an earlier one, and a duplicate of each', () => {
    const coll = new Collection('d', 'c');
    const a = ObjectId.createFromHexString('650000000000000000000001');
    const b = ObjectId.createFromHexString('650000000000000000000002');
    const early = ObjectId.createFromHexString('640000000000000000000009');
    for (const _id of [a, b, early]) coll.insert({ _id }, NOW);
    for (const _id of [a, b, early]) expect(thrown(() => coll.insert({ _id: ObjectId.createFromHexString(_id.toHexString()) }, NOW)).code).toBe(11000);
    expect(indexIds(coll)).toEqual([early, a, b]);
  });

  test('after the last records are removed, their _ids can be inserted again', () => {
    const coll = new Collection('d', 'c');
    for (let i = 1; i <= 100; i++) coll.insert({ _id: i }, NOW);
    for (const rec of [...coll.allRecords()].slice(80)) coll.remove(rec);
    coll.insert({ _id: 100 }, NOW);
    coll.insert({ _id: 90 }, NOW);
    expect(thrown(() => coll.insert({ _id: 80 }, NOW)).code).toBe(11000);
    expect(ids(coll).slice(78)).toEqual([79, 80, 100, 90]);
    expect([coll.storedCount, coll.idIndex.tree.size]).toEqual([82, 82]);
  });

  test('an expired holder of the _id (last or earlier) is removed and replaced', () => {
    const coll = new Collection('d', 'c');
    const deleted: StoredDocument[] = [];
    hideExpired(coll, deleted);
    coll.insert({ _id: 1, expired: true }, NOW);
    coll.insert({ _id: 2 }, NOW);
    coll.insert({ _id: 3, expired: true }, NOW);
    coll.insert({ _id: 3, v: 'new' }, NOW);
    coll.insert({ _id: 1, v: 'new' }, NOW);
    expect(deleted.map((r) => r.doc)).toEqual([
      { _id: 3, expired: true },
      { _id: 1, expired: true },
    ]);
    expect([...coll.allRecords()].map((r) => r.doc)).toEqual([{ _id: 2 }, { _id: 3, v: 'new' }, { _id: 1, v: 'new' }]);
    expect(indexIds(coll)).toEqual([1, 2, 3]);
    expect(thrown(() => coll.insert({ _id: 3 }, NOW)).code).toBe(11000);
  });

  test('collated _id: equal under the collation is a duplicate, last or earlier; an expired one is replaced', () => {
    const coll = new Collection('d', 'c', { collation: CI });
    const deleted: StoredDocument[] = [];
    hideExpired(coll, deleted);
    coll.insert({ _id: 'abc' }, NOW);
    coll.insert({ _id: 'abd', expired: true }, NOW);
    coll.insert({ _id: 'abe' }, NOW);
    for (const _id of ['ABE', 'ABC', 'abc']) {
      const err = thrown(() => coll.insert({ _id }, NOW));
      expect([err.code, err.message]).toEqual([11000, `E11000 duplicate key error collection: d.c index: _id_ dup key: { _id: "${_id}" }`]);
    }
    coll.insert({ _id: 'ABD' }, NOW);
    coll.insert({ _id: 'ABF' }, NOW);
    expect(thrown(() => coll.insert({ _id: 'abf' }, NOW)).code).toBe(11000);
    expect(deleted.map((r) => r.doc._id)).toEqual(['abd']);
    expect(ids(coll)).toEqual(['abc', 'abe', 'ABD', 'ABF']);
    expect(indexIds(coll)).toEqual(['abc', 'ABD', 'abe', 'ABF']);
  });

  test('a capped collection still evicts its oldest documents', () => {
    const coll = new Collection('d', 'c', { capped: true, size: 100000, max: 3 });
    for (let i = 1; i <= 10; i++) coll.insert({ _id: i }, NOW);
    expect(ids(coll)).toEqual([8, 9, 10]);
    expect(indexIds(coll)).toEqual([8, 9, 10]);
    expect(thrown(() => coll.insert({ _id: 10 }, NOW)).code).toBe(11000);
    coll.insert({ _id: 2 }, NOW);
    expect(ids(coll)).toEqual([9, 10, 2]);
  });

  test('with a unique secondary index: its duplicates are refused and nothing is stored', () => {
    const coll = new Collection('d', 'c');
    coll.addIndex({ v: 2, key: { k: 1 }, name: 'k_1', unique: true }, NOW);
    coll.insert({ _id: 1, k: 1 }, NOW);
    const err = thrown(() => coll.insert({ _id: 2, k: 1 }, NOW));
    expect([err.code, err.message]).toEqual([11000, 'E11000 duplicate key error collection: d.c index: k_1 dup key: { k: 1 }']);
    coll.insert({ _id: 2, k: 2 }, NOW);
    expect([ids(coll), indexIds(coll), coll.indexes[0]!.tree.size]).toEqual([[1, 2], [1, 2], 2]);
  });
});

describe('Collection.insert while the _id_ index keeps no entries (the greatest _id offered)', () => {
  /** What each step of a random insert/remove sequence gives: the stored _id, or the error code. */
  function run(coll: Collection, seed: number): unknown[] {
    const deleted: StoredDocument[] = [];
    hideExpired(coll, deleted);
    let x = seed;
    const next = (n: number): number => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return Math.floor((x / 2147483648) * n);
    };
    const forms = [(i: number) => i, (i: number) => new Double(i), (i: number) => new Long(i), (i: number) => `s${i % 10}`, (i: number) => ObjectId.createFromHexString((0x650000000000 + i).toString(16).padStart(24, '0'))];
    const outcomes: unknown[] = [];
    for (let step = 0; step < 600; step++) {
      const r = next(10);
      if (r === 0 && coll.storedCount > 0) {
        // Remove the last or a random record: the greatest _id offered stays above the rest.
        const recs = [...coll.allRecords()];
        coll.remove(next(2) === 0 ? recs[recs.length - 1]! : recs[next(recs.length)]!);
        outcomes.push(['removed', coll.storedCount]);
        continue;
      }
      // Mostly increasing _ids, some repeated, some earlier, in several BSON types.
      const i = r < 6 ? step : r < 8 ? Math.max(0, step - next(5)) : next(step + 1);
      const _id = forms[next(forms.length)]!(i);
      try {
        coll.insert({ _id, expired: next(8) === 0 }, NOW);
        outcomes.push(['stored', coll.storedCount]);
      } catch (err) {
        outcomes.push(['refused', (err as CommandError).code]);
      }
    }
    outcomes.push(ids(coll), deleted.length);
    return outcomes;
  }

  test('counts records entered without an insert (a row model, a rename): their _ids are refused after', () => {
    const coll = new Collection('d', 'c');
    coll.insert({ _id: 1 }, NOW);
    coll.insertRecord(new BsonRecord(encodeStored({ _id: 5, moved: true }, NOW)));
    const err = thrown(() => coll.insert({ _id: 5 }, NOW));
    expect([err.code, err.message]).toEqual([11000, 'E11000 duplicate key error collection: d.c index: _id_ dup key: { _id: 5 }']);
    expect(thrown(() => coll.insert({ _id: new Double(5) }, NOW)).code).toBe(11000);
    coll.insert({ _id: 3 }, NOW);
    coll.insert({ _id: 6 }, NOW);
    expect(coll.idIndex.maintained).toBe(false);
    expect(ids(coll)).toEqual([1, 5, 3, 6]);
  });

  test('gives the outcomes of a built _id_ index: duplicates refused, expired holders replaced', () => {
    let refused = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const deferred = new Collection('d', 'c');
      const built = new Collection('d', 'c');
      expect(built.idIndex.tree.size).toBe(0); // built from here on
      const got = run(deferred, seed);
      expect(deferred.idIndex.maintained).toBe(false);
      expect(got).toEqual(run(built, seed));
      refused += got.filter((o) => Array.isArray(o) && o[0] === 'refused').length;
      expect(indexIds(deferred)).toEqual(indexIds(built));
    }
    expect(refused).toBeGreaterThan(100);
  });
});

describe('Collection.insert of a document from a message of known size', () => {
  test('is stored whole when its field names grow on decoding (invalid UTF-8 becomes U+FFFD)', () => {
    // 5,000 fields named by 50 bytes 0xFF and a counter: 62 bytes each in the message, 162
    // once decoded and written again. The message size bounds the document's size only after
    // tripling, which is what the insert allows for.
    const elements: Buffer[] = [Buffer.from([0x10, 0x5f, 0x69, 0x64, 0x00, 7, 0, 0, 0])];
    for (let i = 0; i < 5000; i++) {
      const name = Buffer.concat([Buffer.alloc(50, 0xff), Buffer.from(String(i).padStart(6, '0'))]);
      elements.push(Buffer.concat([Buffer.from([0x10]), name, Buffer.from([0, i & 0xff, 0, 0, 0])]));
    }
    const body = Buffer.concat(elements);
    const bytes = Buffer.concat([Buffer.alloc(4), body, Buffer.from([0])]);
    bytes.writeInt32LE(bytes.length, 0);
    const doc = deserialize(bytes);
    expect(Object.keys(doc)).toHaveLength(5001);
    const coll = new Collection('d', 'c');
    const rec = coll.insert(doc, NOW, bytes.length);
    expect(storedSize(rec.bson!)).toBe(serialize(doc).length);
    expect(storedSize(rec.bson!)).toBeGreaterThan(2.5 * bytes.length);
    expect(decodeStored(rec.bson!)).toEqual(doc);
  });

  test('a document that js-bson writes (a Code value) is stored whole too', () => {
    const coll = new Collection('d', 'c');
    const doc = { _id: 1, f: new Code('function () { return 1; }'), s: 'x' };
    const rec = coll.insert(doc, NOW, serialize(doc).length);
    expect(decodeStored(rec.bson!)).toEqual(doc);
  });
});

describe('_id moved first', () => {
  test('an _id given last, or none, comes first; the other fields keep their order', () => {
    const coll = new Collection('d', 'c');
    const given = { k: 1, name: 'a', n: 1, x: { y: 2 }, z: [3], _id: 7 };
    const stored = coll.insert(given, NOW).doc;
    expect(Object.keys(stored)).toEqual(['_id', 'k', 'name', 'n', 'x', 'z']);
    expect(stored).toEqual({ _id: 7, k: 1, name: 'a', n: 1, x: { y: 2 }, z: [3] });
    expect(Object.keys(given)).toEqual(['k', 'name', 'n', 'x', 'z', '_id']);
    const generated = coll.insert({ k: 2 }, NOW).doc;
    expect([Object.keys(generated), generated._id instanceof ObjectId]).toEqual([['_id', 'k'], true]);
  });

  test('a __proto__ field stays an own field and the prototype is untouched', () => {
    const coll = new Collection('d', 'c');
    const given: Document = { a: 1 };
    Object.defineProperty(given, '__proto__', { value: { p: 1 }, writable: true, enumerable: true, configurable: true });
    given._id = 1;
    const stored = coll.insert(given, NOW).doc;
    expect(Object.keys(stored)).toEqual(['_id', 'a', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')!.value).toEqual({ p: 1 });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
  });
});

describe('Index.isAfterEveryKey', () => {
  const rec = (seq: number): StoredDocument => ({ id: `n${seq}`, doc: {} as Document, modifiedAtMs: NOW, seq });

  test('empty, after, equal, before; after removals from the end', () => {
    const index = new Index({ v: 2, key: { _id: 1 }, name: '_id_' });
    expect(index.isAfterEveryKey(0)).toBe(true);
    const recs = Array.from({ length: 300 }, (_, i) => rec(i + 1));
    recs.forEach((r) => index.tree.insert(r.seq, r));
    expect([index.isAfterEveryKey(301), index.isAfterEveryKey(300), index.isAfterEveryKey(1), index.isAfterEveryKey('a')]).toEqual([true, false, false, true]);
    for (const r of recs.slice(100)) index.tree.delete(r.seq, r);
    expect([index.isAfterEveryKey(101), index.isAfterEveryKey(100), index.isAfterEveryKey(new Long(100)), index.isAfterEveryKey(100.5)]).toEqual([true, false, false, true]);
    for (const r of recs.slice(0, 100)) index.tree.delete(r.seq, r);
    expect([index.tree.size, index.isAfterEveryKey(-1)]).toEqual([0, true]);
  });

  test('under a collation: a string equal under it is not after', () => {
    const index = new Index({ v: 2, key: { _id: 1 }, name: '_id_', collation: CI });
    const r = rec(1);
    index.tree.insert('abc', r);
    expect([index.isAfterEveryKey('ABC'), index.isAfterEveryKey('abC'), index.isAfterEveryKey('ABD'), index.isAfterEveryKey('ab')]).toEqual([false, false, true, false]);
  });
});
