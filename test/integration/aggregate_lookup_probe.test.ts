/**
 * `$lookup` joining one local value through the foreign collection's index (the runtime's
 * `equalityProbe`, planned once per kind of value): the same documents in the same order as the
 * planned query gives — numbers equal across types in index order, strings under the index's and
 * the command's collation, multikey and dotted foreign fields — and the values the probe leaves to
 * the planner (null, arrays, a second index, a leading `$match`) answered as before.
 */
import { Decimal128, Double, Int32, Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('nums').insertMany([
    { _id: 1, k: new Double(1) },
    { _id: 2, k: 2 },
    { _id: 3, k: Long.fromNumber(1) },
    { _id: 4, k: [1, 5] },
    { _id: 5, k: Decimal128.fromString('1.0') },
    { _id: 6 },
    { _id: 7, k: null },
    { _id: 8, k: new Int32(1) },
    { _id: 9, k: 'one' },
  ]);
  await db.collection('nums').createIndex({ k: -1 });
  await db.collection('words').insertMany([
    { _id: 1, w: 'Apple' },
    { _id: 2, w: 'apple' },
    { _id: 3, w: ['APPLE', 'pear'] },
    { _id: 4, w: 'pear' },
  ]);
  await db.collection('words').createIndex({ w: 1 }, { collation: { locale: 'en', strength: 2 } });
  await db.collection('nested').insertMany([
    { _id: 1, a: [{ b: 3 }, { b: 4 }] },
    { _id: 2, a: { b: 3 } },
    { _id: 3, a: { b: [3, 3] } },
    { _id: 4, a: [{ b: 5 }] },
  ]);
  await db.collection('nested').createIndex({ 'a.b': 1 });
  await db.collection('two').insertMany([
    { _id: 1, t: 1, u: 2 },
    { _id: 2, t: 1, u: 1 },
  ]);
  await db.collection('two').createIndex({ t: 1 });
  await db.collection('two').createIndex({ t: 1, u: 1 });
  await db.collection('local').insertMany([
    { _id: 1, ref: 1 },
    { _id: 2, ref: new Double(5) },
    { _id: 3, ref: 'apple' },
    { _id: 4, ref: null },
    { _id: 5 },
    { _id: 6, ref: [2, 5] },
    { _id: 7, ref: 3 },
  ]);
});
afterAll(async () => {
  await h.close();
});

const joinedIds = async (from: string, foreignField: string, extra: object = {}, options: object = {}): Promise<unknown[]> => {
  const docs = await db
    .collection('local')
    .aggregate([{ $lookup: { from, localField: 'ref', foreignField, as: 'j', ...extra } }, { $project: { ids: '$j._id' } }], options)
    .toArray();
  return docs.map((d) => [d._id, d.ids]);
};

describe('$lookup through the foreign index', () => {
  it('joins numbers equal across types in the index order (descending, ties by insertion)', async () => {
    expect(await joinedIds('nums', 'k')).toEqual([
      [1, [1, 3, 4, 5, 8]],
      [2, [4]],
      [3, []],
      [4, [6, 7]],
      [5, [6, 7]],
      [6, [4, 2]],
      [7, []],
    ]);
  });

  it('joins strings by the index only under its collation', async () => {
    expect((await joinedIds('words', 'w'))[2]).toEqual([3, [2]]);
    expect((await joinedIds('words', 'w', {}, { collation: { locale: 'en', strength: 2 } }))[2]).toEqual([3, [1, 2, 3]]);
  });

  it('joins a dotted foreign field through arrays of documents', async () => {
    expect(await joinedIds('nested', 'a.b')).toEqual([
      [1, []],
      [2, [4]],
      [3, []],
      [4, []],
      [5, []],
      [6, [4]],
      [7, [1, 2, 3]],
    ]);
  });

  it('leaves two candidate indexes, and a leading $match, to the planner', async () => {
    expect((await joinedIds('two', 't'))[0]).toEqual([1, [1, 2]]);
    expect((await joinedIds('nums', 'k', { pipeline: [{ $match: { _id: { $gt: 3 } } }] }))[0]).toEqual([1, [4, 5, 8]]);
    expect((await joinedIds('nums', 'k', { pipeline: [{ $sort: { _id: -1 } }] }))[0]).toEqual([1, [8, 5, 4, 3, 1]]);
  });

  it('counts each probe as an access of the index ($indexStats)', async () => {
    await db.collection('probed').insertMany([{ _id: 1, k: 1 }]);
    await db.collection('probed').createIndex({ k: 1 });
    await db.collection('local').aggregate([{ $match: { _id: { $lte: 3 } } }, { $lookup: { from: 'probed', localField: 'ref', foreignField: 'k', as: 'j' } }]).toArray();
    const stats = await db.collection('probed').aggregate([{ $indexStats: {} }, { $match: { name: 'k_1' } }]).toArray();
    expect(Number(stats[0]!.accesses.ops)).toBe(3);
  });
});
