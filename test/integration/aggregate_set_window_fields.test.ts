/**
 * `$setWindowFields` through the driver: sliding and range frames, the window-only functions,
 * BSON types kept end to end, the parse errors with mongod's codes, and the memory limit of
 * `allowDiskUse: false`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Double, Int32, Long } from 'mongodb';
import { errorOf, seed, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await seed(db, 'sales', [
    { _id: 1, shop: 'a', day: new Date('2024-01-01T00:00:00Z'), n: 10 },
    { _id: 2, shop: 'a', day: new Date('2024-01-02T00:00:00Z'), n: 20 },
    { _id: 3, shop: 'a', day: new Date('2024-01-04T00:00:00Z'), n: 30 },
    { _id: 4, shop: 'b', day: new Date('2024-01-01T00:00:00Z'), n: 5 },
    { _id: 5, shop: 'b', day: new Date('2024-01-03T00:00:00Z'), n: 7 },
  ]);
});
afterAll(async () => {
  await h.close();
});

describe('$setWindowFields', () => {
  it('a running total and a moving average per partition', async () => {
    const out = await db
      .collection('sales')
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$shop',
            sortBy: { day: 1 },
            output: {
              total: { $sum: '$n', window: { documents: ['unbounded', 'current'] } },
              moving: { $avg: '$n', window: { documents: [-1, 0] } },
            },
          },
        },
        { $project: { _id: 1, total: 1, moving: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, total: 10, moving: 10 },
      { _id: 2, total: 30, moving: 15 },
      { _id: 3, total: 60, moving: 25 },
      { _id: 4, total: 5, moving: 5 },
      { _id: 5, total: 12, moving: 6 },
    ]);
  });

  it('keeps the BSON types: Int32 sums, Double averages, Int64 and Decimal128', async () => {
    await seed(db, 'types', [
      { _id: 1, i: 1, l: Long.fromNumber(2), d: Decimal128.fromString('1.5') },
      { _id: 2, i: 2, l: Long.fromNumber(3), d: Decimal128.fromString('2.5') },
    ]);
    const [first] = await db
      .collection('types')
      .aggregate(
        [{ $setWindowFields: { sortBy: { _id: 1 }, output: { si: { $sum: '$i' }, ai: { $avg: '$i' }, sl: { $sum: '$l' }, sd: { $sum: '$d' }, rk: { $rank: {} } } } }],
        { promoteValues: false },
      )
      .toArray();
    expect(first!.si).toEqual(new Int32(3));
    expect(first!.ai).toEqual(new Double(1.5));
    expect(first!.sl).toEqual(Long.fromNumber(5));
    expect(first!.sd).toEqual(Decimal128.fromString('4.0'));
    expect(first!.rk).toEqual(new Int32(1));
  });

  it('a time range frame, $shift, $locf and $denseRank', async () => {
    const out = await db
      .collection('sales')
      .aggregate([
        { $match: { shop: 'a' } },
        {
          $setWindowFields: {
            sortBy: { day: 1 },
            output: {
              twoDays: { $sum: '$n', window: { range: [-1, 0], unit: 'day' } },
              previous: { $shift: { output: '$n', by: -1, default: 0 } },
              dense: { $denseRank: {} },
            },
          },
        },
        { $project: { _id: 1, twoDays: 1, previous: 1, dense: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, twoDays: 10, previous: 0, dense: 1 },
      { _id: 2, twoDays: 30, previous: 10, dense: 2 },
      { _id: 3, twoDays: 30, previous: 20, dense: 3 },
    ]);
  });

  it('answers mongod codes for bad specifications', async () => {
    const run = (stage: unknown) => errorOf(() => db.collection('sales').aggregate([{ $setWindowFields: stage }]).toArray());
    expect(await run({ output: { r: { $sum: '$n', window: { documents: [-1, 0] } } } })).toMatchObject({
      code: 5339901,
      errmsg: 'Document-based bounds require a sortBy',
    });
    expect(await run({ sortBy: { n: 1 }, output: { r: { $nope: 1 } } })).toMatchObject({ code: 9, codeName: 'FailedToParse', errmsg: 'Unrecognized window function, $nope' });
    expect(await run({ sortBy: { n: 1, _id: 1 }, output: { r: { $rank: {} } } })).toMatchObject({ code: 5371602 });
    expect(await run({ sortBy: { n: 1 } })).toMatchObject({ code: 40414, codeName: 'IDLFailedToParse' });
  });

  it('a range frame over a sortBy value that is not a number fails when run', async () => {
    await seed(db, 'mixed', [{ _id: 1, x: 1 }, { _id: 2, x: 'two' }]);
    const err = await errorOf(() =>
      db.collection('mixed').aggregate([{ $setWindowFields: { sortBy: { x: 1 }, output: { r: { $sum: 1, window: { range: [0, 1] } } } } }]).toArray(),
    );
    expect(err).toMatchObject({ code: 5429414 });
    expect(err.errmsg).toContain('Invalid range: Expected the sortBy field to be a number, but it was string');
  });

  it('refuses a partition past 100 MB with allowDiskUse: false, and runs it without', async () => {
    const big = 'x'.repeat(4 * 1024 * 1024);
    await db.collection('big').drop().catch(() => undefined);
    for (let i = 0; i < 26; i++) await db.collection('big').insertOne({ _id: i, s: big });
    const pipeline = [{ $setWindowFields: { output: { c: { $count: {} } } } }, { $project: { c: 1 } }, { $limit: 1 }];
    const err = await errorOf(() => db.collection('big').aggregate(pipeline, { allowDiskUse: false }).toArray());
    expect(err.code).toBe(5414201);
    expect(err.errmsg).toMatch(/Exceeded memory limit in DocumentSourceSetWindowFields, used \d+ bytes but max allowed is 104857600/);
    expect(await db.collection('big').aggregate(pipeline).toArray()).toEqual([{ _id: 0, c: 26 }]);
    await db.collection('big').drop();
  });
});
