/**
 * Index maintenance on update: an update that changes only fields no index depends on leaves
 * those indexes alone (`CompiledUpdate.changedFields`, `Index.dependsOn`), and every index still
 * finds exactly the documents a collection scan finds. On removal: a stored document is decoded
 * only as far as the indexes read (`Index.keyFields`), and each index loses exactly its entries.
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { Collection } from '../../../src/storage/collection.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { Index } from '../../../src/storage/indexes/index.js';
import { keyString } from '../../../src/storage/values/key_string.js';
import { errorOf } from '../thrown.js';
import { treeEntries } from './tree_entries.js';
import { WritePath } from '../../../src/storage/write/write_unit.js';

const NOW = 1_700_000_000_000;

/** `[key, _id]` of the entries of index `name`, in index order. */
const entries = (coll: Collection, name: string): unknown[] => treeEntries(coll.findIndex(name)!.tree).map(([key, rec]) => [key, rec.doc._id]);

/** Applies `update` to the document with `_id` as the update command does. */
function updateById(coll: Collection, id: unknown, update: Document): void {
  const rec = coll.getById(keyString(id), NOW)!;
  const compiled = compileUpdate(update);
  const result = compiled.apply(rec.doc, { now: new Date(NOW), isUpsertInsert: false });
  coll.update(rec, result.doc, NOW, compiled.changedFields);
}

function collectionWith(...specs: Document[]): Collection {
  const coll = new Collection('db', 'c');
  for (const spec of specs) coll.addIndex({ v: 2, ...spec }, NOW);
  coll.insert({ _id: 1, k: 10, n: 1, a: { b: 5 } }, NOW);
  coll.insert({ _id: 2, k: 20, n: 2, a: { b: 6 } }, NOW);
  return coll;
}

describe('changedFields of a compiled update', () => {
  test('an operator update names the first components of its paths', () => {
    expect([...compileUpdate({ $inc: { n: 1 }, $set: { "a.b": 2, c: 1 }, $rename: { x: "y" } }).changedFields!].sort()).toEqual(['a', 'c', 'n', 'x', 'y']);
  });
  test('a positional path still names its first component', () => {
    expect([...compileUpdate({ $set: { 'arr.$.v': 1 } }).changedFields!]).toEqual(['arr']);
  });
  test('a replacement and a pipeline may change any field', () => {
    expect(compileUpdate({ k: 1 }).changedFields).toBeNull();
    expect(compileUpdate([{ $set: { k: 1 } }] as unknown as Document).changedFields).toBeNull();
  });
});

describe('Index.dependsOn', () => {
  test('an index depends on the first components of its key fields', () => {
    const index = new Index({ v: 2, key: { 'a.b': 1, k: -1 }, name: 'ab_k' });
    expect(index.dependsOn(['n'])).toBe(false);
    expect(index.dependsOn(['a'])).toBe(true);
    expect(index.dependsOn(['k', 'z'])).toBe(true);
    expect(index.dependsOn(null)).toBe(true);
  });
  test('a partial index depends on every field (its filter decides membership)', () => {
    const index = new Index({ v: 2, key: { k: 1 }, name: 'k_1', partialFilterExpression: { n: { $gt: 1 } } });
    expect(index.dependsOn(['n'])).toBe(true);
    expect(index.dependsOn(['zzz'])).toBe(true);
  });
  test('an entryless index depends on nothing', () => {
    expect(new Index({ v: 2, key: { t: 'text' }, name: 't_text' }).dependsOn(['t'])).toBe(false);
  });
});

describe('Index.keyFields: what a removal decodes of a stored document', () => {
  test('the first components of the key fields, once each', () => {
    expect(new Index({ v: 2, key: { 'a.b': 1, k: -1, 'a.c': 1 }, name: 'x' }).keyFields).toEqual(['a', 'k']);
  });
  test('a partial index reads the whole document (its filter decides membership)', () => {
    expect(new Index({ v: 2, key: { k: 1 }, name: 'k_1', partialFilterExpression: { n: { $gt: 1 } } }).keyFields).toBeNull();
  });
  test('an entryless index reads nothing: text, and the Cosmos `_ts` TTL index', () => {
    expect(new Index({ v: 2, key: { t: 'text' }, name: 't_text' }).keyFields).toEqual([]);
    expect(new Index({ v: 2, key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 }).keyFields).toEqual([]);
  });
});

describe('index entries after removals', () => {
  test('dotted, compound, partial and entryless indexes and a built `_id_` index lose exactly the removed document', () => {
    const coll = collectionWith(
      { key: { 'a.b': 1 }, name: 'ab_1' },
      { key: { n: 1, k: -1 }, name: 'n_k' },
      { key: { k: 1 }, name: 'k_partial', partialFilterExpression: { n: { $gt: 1 } } },
      { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 },
    );
    coll.insert({ _id: 3, k: 30, n: 3, a: { b: 4 } }, NOW);
    expect(entries(coll, '_id_')).toEqual([[1, 1], [2, 2], [3, 3]]); // builds the deferred `_id_` entries
    expect(coll.remove(coll.getById(keyString(2), NOW)!)).toBe(true);
    expect(entries(coll, '_id_')).toEqual([[1, 1], [3, 3]]);
    expect(entries(coll, 'ab_1')).toEqual([[4, 3], [5, 1]]);
    expect(entries(coll, 'n_k')).toEqual([[[1, 10], 1], [[3, 30], 3]]);
    expect(entries(coll, 'k_partial')).toEqual([[30, 3]]);
    expect(entries(coll, '_ts_1')).toEqual([]);
  });
  test('a built `_id_` index loses its entry when the other indexes read only other fields', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_1' });
    expect(entries(coll, '_id_')).toEqual([[1, 1], [2, 2]]);
    coll.remove(coll.getById(keyString(1), NOW)!);
    expect(entries(coll, '_id_')).toEqual([[2, 2]]);
    expect(entries(coll, 'k_1')).toEqual([[20, 2]]);
  });
  test('removeRecords removes what remove each would: records, index entries, write events, once each', () => {
    const coll = collectionWith({ key: { 'a.b': 1 }, name: 'ab_1' }, { key: { k: 1 }, name: 'k_1', unique: true });
    for (let i = 3; i <= 10; i++) coll.insert({ _id: i, k: i * 10, n: i, a: { b: i % 3 } }, NOW);
    expect(entries(coll, '_id_')).toHaveLength(10); // builds the deferred `_id_` entries
    const deleted: unknown[] = [];
    coll.writes = new WritePath();
    coll.writes.observers.add({ onDelete: (event) => deleted.push(event.record.doc._id) });
    const rec = (id: number) => coll.getById(keyString(id), NOW)!;
    const four = rec(4);
    // 4 twice, a stale twin of 6 (same _id, another object) and 2 twice, with 9 past the count.
    const twin = { ...rec(6) };
    const recs = [four, rec(2), twin, four, rec(7), rec(2), rec(9)];
    expect(coll.removeRecords(recs, 6)).toBe(3);
    expect(recs.slice(0, 3).map((r) => r.doc._id)).toEqual([4, 2, 7]);
    expect(deleted).toEqual([4, 2, 7]);
    expect([...coll.allRecords()].map((r) => r.doc._id)).toEqual([1, 3, 5, 6, 8, 9, 10]);
    expect(entries(coll, '_id_')).toEqual([[1, 1], [3, 3], [5, 5], [6, 6], [8, 8], [9, 9], [10, 10]]);
    expect(entries(coll, 'k_1')).toEqual([[10, 1], [30, 3], [50, 5], [60, 6], [80, 8], [90, 9], [100, 10]]);
    expect(entries(coll, 'ab_1')).toEqual([[0, 3], [0, 6], [0, 9], [1, 10], [2, 5], [2, 8], [5, 1]]);
    expect(coll.removeRecords([four], 1)).toBe(0);
    expect(deleted).toHaveLength(3);
  });
  test('an index added or dropped later changes what a removal reads', () => {
    const coll = collectionWith({ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 });
    coll.remove(coll.getById(keyString(1), NOW)!); // reads nothing
    coll.addIndex({ v: 2, key: { 'a.b': 1 }, name: 'ab_1' }, NOW);
    coll.insert({ _id: 3, k: 30, n: 3, a: { b: 4 } }, NOW);
    coll.remove(coll.getById(keyString(2), NOW)!);
    expect(entries(coll, 'ab_1')).toEqual([[4, 3]]);
    expect(coll.dropIndex('ab_1')).toBe(true);
    coll.addIndex({ v: 2, key: { k: 1 }, name: 'k_partial', partialFilterExpression: { n: { $gt: 1 } } }, NOW);
    coll.insert({ _id: 4, k: 40, n: 4 }, NOW);
    coll.remove(coll.getById(keyString(3), NOW)!);
    expect(entries(coll, 'k_partial')).toEqual([[40, 4]]);
  });
});

describe('index entries after updates', () => {
  test('an update of an unindexed field keeps the entries as they were', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_1' });
    updateById(coll, 1, { $inc: { n: 5 } });
    expect(entries(coll, 'k_1')).toEqual([[10, 1], [20, 2]]);
    expect(coll.getById(keyString(1), NOW)!.doc).toEqual({ _id: 1, k: 10, n: 6, a: { b: 5 } });
  });
  test('an update of an indexed field moves its entry', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_1' });
    updateById(coll, 1, { $set: { k: 30 } });
    expect(entries(coll, 'k_1')).toEqual([[20, 2], [30, 1]]);
  });
  test('an update of a nested indexed path moves its entry', () => {
    const coll = collectionWith({ key: { 'a.b': 1 }, name: 'ab_1' });
    updateById(coll, 2, { $set: { 'a.b': 1 } });
    expect(entries(coll, 'ab_1')).toEqual([[1, 2], [5, 1]]);
  });
  test('a partial index gains and loses entries when its filter field changes', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_partial', partialFilterExpression: { n: { $gt: 1 } } });
    expect(entries(coll, 'k_partial')).toEqual([[20, 2]]);
    updateById(coll, 1, { $inc: { n: 5 } });
    expect(entries(coll, 'k_partial')).toEqual([[10, 1], [20, 2]]);
    updateById(coll, 2, { $set: { n: 0 } });
    expect(entries(coll, 'k_partial')).toEqual([[10, 1]]);
  });
  test('a unique index still refuses a duplicate made by an update', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_1', unique: true });
    expect(errorOf(() => updateById(coll, 1, { $set: { k: 20 } }))[0]).toBe(11000);
    expect(entries(coll, 'k_1')).toEqual([[10, 1], [20, 2]]);
  });
  test('a replacement updates every index', () => {
    const coll = collectionWith({ key: { k: 1 }, name: 'k_1' }, { key: { n: 1 }, name: 'n_1' });
    updateById(coll, 1, { k: 40, n: 40 });
    expect(entries(coll, 'k_1')).toEqual([[20, 2], [40, 1]]);
    expect(entries(coll, 'n_1')).toEqual([[2, 2], [40, 1]]);
  });
  test('changing _id through the collection is refused with 66', () => {
    const coll = collectionWith();
    const rec = coll.getById(keyString(1), NOW)!;
    expect(errorOf(() => coll.update(rec, { _id: 9, k: 10 }, NOW))).toEqual([66, "Performing an update on the path '_id' would modify the immutable field '_id'"]);
  });
});
