/** `$bucket`, `$bucketAuto` and `$rankFusion` through the driver: exact documents, BSON types and errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Double, Int32, Long } from 'mongodb';
import { startHarness, errorOf, seed, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await seed(db, 'prices', [
    { _id: 1, price: 5, qty: 2 },
    { _id: 2, price: 15, qty: 4 },
    { _id: 3, price: 25, qty: 6 },
    { _id: 4, price: Long.fromNumber(12), qty: 8 },
    { _id: 5, price: 'n/a', qty: 1 },
  ]);
});
afterAll(async () => {
  await h.close();
});

describe('$bucket', () => {
  it('buckets by interval, the default last in BSON order, the output fields accumulated', async () => {
    const out = await db
      .collection('prices')
      .aggregate([{ $bucket: { groupBy: '$price', boundaries: [0, 10, 20], default: 'other', output: { n: { $sum: 1 }, qty: { $push: '$qty' } } } }])
      .toArray();
    expect(out).toEqual([
      { _id: 0, n: 1, qty: [2] },
      { _id: 10, n: 2, qty: [4, 8] },
      { _id: 'other', n: 2, qty: [6, 1] },
    ]);
  });

  it('keeps Double boundaries as Doubles', async () => {
    const out = await db.collection('prices').aggregate([{ $match: { _id: { $lt: 3 } } }, { $bucket: { groupBy: '$price', boundaries: [new Double(0), new Double(10), new Double(20)] } }], { promoteValues: false }).toArray();
    expect(out.map((d) => d._id)).toEqual([new Double(0), new Double(10)]);
  });

  it('answers mongod\'s codes', async () => {
    const run = (spec: unknown) => errorOf(() => db.collection('prices').aggregate([{ $bucket: spec }]).toArray());
    expect(await run({ groupBy: '$price', boundaries: [10, 0] })).toMatchObject({ code: 40194 });
    expect(await run({ groupBy: '$price', boundaries: [0, 10], default: 5 })).toMatchObject({ code: 40199, errmsg: "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary." });
    expect(await run({ groupBy: '$price', boundaries: [0, 10] })).toMatchObject({ code: 40066 });
  });
});

describe('$bucketAuto', () => {
  it('cuts the sorted values evenly, numbers of every type in one order', async () => {
    const out = await db.collection('prices').aggregate([{ $match: { _id: { $lt: 5 } } }, { $bucketAuto: { groupBy: '$price', buckets: 2, output: { ids: { $push: '$_id' } } } }]).toArray();
    expect(out).toEqual([
      { _id: { min: 5, max: 15 }, ids: [1, 4] },
      { _id: { min: 15, max: 25 }, ids: [2, 3] },
    ]);
  });

  it('rounds to a granularity as Doubles', async () => {
    const out = await db.collection('prices').aggregate([{ $match: { _id: { $lt: 4 } } }, { $bucketAuto: { groupBy: '$price', buckets: 2, granularity: 'R5' } }], { promoteValues: false }).toArray();
    expect(out).toEqual([
      { _id: { min: new Double(4), max: new Double(16) }, count: new Int32(2) },
      { _id: { min: new Double(16), max: new Double(40) }, count: new Int32(1) },
    ]);
  });

  it('answers mongod\'s codes', async () => {
    const run = (spec: unknown) => errorOf(() => db.collection('prices').aggregate([{ $bucketAuto: spec }]).toArray());
    expect(await run({ groupBy: '$price', buckets: 0 })).toMatchObject({ code: 40243 });
    expect(await run({ groupBy: '$price', buckets: 2, granularity: 'R5' })).toMatchObject({ code: 40258 });
    expect(await run({ groupBy: '$price', buckets: Decimal128.fromString('2.5') })).toMatchObject({ code: 40242 });
  });
});

describe('$rankFusion', () => {
  it('fuses the ranks of its pipelines into the score metadata', async () => {
    const out = await db
      .collection('prices')
      .aggregate([
        { $rankFusion: { input: { pipelines: { byQty: [{ $sort: { qty: -1 } }, { $limit: 2 }], cheap: [{ $match: { price: { $lt: 20 } } }, { $sort: { price: 1 } }] } } } },
        { $project: { _id: 1, score: { $meta: 'score' } } },
      ])
      .toArray();
    // byQty: 4 (rank 1), 3 (rank 2); cheap: 1 (rank 1), 4 (rank 2), 2 (rank 3).
    expect(out).toEqual([
      { _id: 4, score: 1 / 61 + 1 / 62 },
      { _id: 1, score: 1 / 61 },
      { _id: 3, score: 1 / 62 },
      { _id: 2, score: 1 / 63 },
    ]);
  });

  it('stands first only, and in a $lookup sub-pipeline', async () => {
    expect(await errorOf(() => db.collection('prices').aggregate([{ $match: {} }, { $rankFusion: { input: { pipelines: { p: [{ $sort: { qty: 1 } }] } } } }]).toArray())).toMatchObject({ code: 10170100 });
    const out = await db
      .collection('prices')
      .aggregate([
        { $match: { _id: 1 } },
        { $lookup: { from: 'prices', pipeline: [{ $rankFusion: { input: { pipelines: { p: [{ $sort: { qty: -1 } }, { $limit: 1 }] } } } }], as: 'top' } },
      ])
      .toArray();
    expect(out).toEqual([{ _id: 1, price: 5, qty: 2, top: [{ _id: 4, price: 12, qty: 8 }] }]);
  });
});
