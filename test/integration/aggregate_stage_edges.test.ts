/**
 * Edge cases of `$set`/`$addFields` and `$unwind` as mongod 8.2 answers them: an empty
 * specification or sub-object, `__proto__` as an index field, path syntax limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long } from 'mongodb';
import { startHarness, errorOf, seed, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await seed(db, 'edges', [{ _id: 1, a: { x: 1, y: 2 }, b: { x: 1, y: 2 } }]);
  await seed(db, 'edges_arr', [{ _id: 1, a: [10, 20] }]);
});
afterAll(async () => {
  await h.close();
});

describe('$set / $addFields', () => {
  it('passes documents through an empty specification', async () => {
    for (const stage of ['$set', '$addFields']) {
      expect(await db.collection('edges').aggregate([{ [stage]: {} }]).toArray()).toEqual([{ _id: 1, a: { x: 1, y: 2 }, b: { x: 1, y: 2 } }]);
    }
  });

  it('replaces a value with an empty sub-object, merges a non-empty one', async () => {
    expect(await db.collection('edges').aggregate([{ $set: { a: { z: 3 }, b: {} } }]).toArray()).toEqual([
      { _id: 1, a: { x: 1, y: 2, z: 3 }, b: {} },
    ]);
    expect(await db.collection('edges').aggregate([{ $addFields: { a: {}, c: { d: {} } } }]).toArray()).toEqual([
      { _id: 1, a: {}, b: { x: 1, y: 2 }, c: { d: {} } },
    ]);
  });
});

describe('$unwind', () => {
  it('writes includeArrayIndex "__proto__" as an ordinary field', async () => {
    const docs = await db.collection('edges_arr').aggregate([{ $unwind: { path: '$a', includeArrayIndex: '__proto__' } }], { promoteLongs: false }).toArray();
    expect(docs.map((d) => Object.entries(d))).toEqual([
      [['_id', 1], ['a', 10], ['__proto__', Long.fromNumber(0)]],
      [['_id', 1], ['a', 20], ['__proto__', Long.fromNumber(1)]],
    ]);
  });

  it('rejects a path with a null byte or more than 200 components', async () => {
    let err = await errorOf(() => db.collection('edges_arr').aggregate([{ $unwind: { path: '$a\0b' } }]).toArray());
    expect([err.code, err.codeName, err.errmsg]).toEqual([16419, 'Location16419', 'field path must not contain embedded null characters']);
    err = await errorOf(() => db.collection('edges_arr').aggregate([{ $unwind: `$${Array(201).fill('a').join('.')}` }]).toArray());
    expect([err.code, err.codeName, err.errmsg]).toEqual([15, 'Overflow', 'FieldPath is too long']);
    const ok = await db.collection('edges_arr').aggregate([{ $unwind: `$${Array(200).fill('a').join('.')}` }]).toArray();
    expect(ok).toEqual([]);
  });
});
