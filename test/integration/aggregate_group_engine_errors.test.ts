/**
 * mongod 8.2 runs a `$group` that reads the collection itself (first after the stages the query
 * layer absorbs: `$match`, `$sort`, `$skip`, `$limit`) in its slot-based engine, whose `$divide`
 * and `$mod` by zero answer 4848401 and 4848403 (src/storage/expression/engine_error.ts). Every
 * other place evaluates in the classic engine: 2 BadValue for `$divide`, 16610 (5733415 for a
 * Decimal128) for `$mod`. The recorded cases are the accumulators' error tests of
 * documentdb/functional-tests (mongod 8.2.4) and its `$bucketAuto`/`$facet` error tests.
 */
import { Decimal128, MongoServerError, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  await h.db.collection('c').insertMany([
    { _id: 0, v: 1, d: Decimal128.fromString('1') },
    { _id: 1, v: 0, d: Decimal128.fromString('0') },
  ]);
});
afterAll(async () => {
  await h.close();
});

/** The error `pipeline` fails with: code, codeName, message. */
async function failure(pipeline: Document[]): Promise<{ code: unknown; codeName: unknown; errmsg: string }> {
  try {
    await h.db.collection('c').aggregate(pipeline).toArray();
  } catch (err) {
    expect(err).toBeInstanceOf(MongoServerError);
    const e = err as MongoServerError;
    return { code: e.code, codeName: e.codeName, errmsg: e.message };
  }
  throw new Error('the pipeline succeeded');
}

const DIVIDE_SBE = { code: 4848401, codeName: 'Location4848401', errmsg: "PlanExecutor error during aggregation :: caused by :: can't $divide by zero" };
const MOD_SBE = { code: 4848403, codeName: 'Location4848403', errmsg: "PlanExecutor error during aggregation :: caused by :: can't $mod by zero" };
const DIVIDE_CLASSIC = { code: 2, codeName: 'BadValue', errmsg: "PlanExecutor error during aggregation :: caused by :: can't $divide by zero" };
const MOD_CLASSIC = { code: 16610, codeName: 'Location16610', errmsg: "PlanExecutor error during aggregation :: caused by :: can't $mod by zero" };

describe('a $group over the collection (SBE in mongod 8.2)', () => {
  test.each([
    ['$sum', { $sum: { $divide: [1, '$v'] } }],
    ['$push', { $push: { $divide: ['$v', 0] } }],
    ['$first', { $first: { $divide: [1, '$v'] } }],
    ['$mergeObjects', { $mergeObjects: { $divide: ['$v', 0] } }],
    ['$setUnion', { $setUnion: { $let: { vars: {}, in: [{ $divide: [1, '$v'] }] } } }],
  ])('%s of a $divide by zero: 4848401', async (_name, acc) => {
    expect(await failure([{ $group: { _id: null, r: acc } }])).toEqual(DIVIDE_SBE);
  });

  test('a $divide by zero of a later document, after an absorbed $sort and $match', async () => {
    expect(await failure([{ $match: { _id: { $gte: 0 } } }, { $sort: { _id: 1 } }, { $group: { _id: null, r: { $max: { $divide: [1, '$v'] } } } }, { $project: { _id: 0 } }])).toEqual(DIVIDE_SBE);
  });

  test('a Decimal128 divisor of zero is 4848401 too', async () => {
    expect(await failure([{ $group: { _id: null, r: { $min: { $divide: [1, '$d'] } } } }])).toEqual(DIVIDE_SBE);
  });

  test('the group key is evaluated in SBE too', async () => {
    expect(await failure([{ $group: { _id: { $divide: [1, '$v'] } } }])).toEqual(DIVIDE_SBE);
  });

  test.each([
    ['Int32', { $avg: { $mod: ['$v', 0] } }],
    ['Decimal128', { $addToSet: { $mod: ['$d', '$d'] } }],
    ['inside $let', { $mergeObjects: { $let: { vars: {}, in: { x: { $mod: ['$v', 0] } } } } }],
  ])('a $mod by zero (%s): 4848403', async (_name, acc) => {
    expect(await failure([{ $group: { _id: null, r: acc } }])).toEqual(MOD_SBE);
  });
});

describe('everywhere else (the classic engine)', () => {
  test('a $group behind an $addFields', async () => {
    expect(await failure([{ $addFields: { x: 1 } }, { $group: { _id: null, r: { $sum: { $divide: [1, '$v'] } } } }])).toEqual(DIVIDE_CLASSIC);
    expect(await failure([{ $addFields: { x: 1 } }, { $group: { _id: null, r: { $sum: { $mod: [1, '$v'] } } } }])).toEqual(MOD_CLASSIC);
  });

  test('a $group inside $facet', async () => {
    expect(await failure([{ $facet: { f: [{ $group: { _id: null, r: { $sum: { $divide: [1, '$v'] } } } }] } }])).toEqual(DIVIDE_CLASSIC);
  });

  test('$bucketAuto', async () => {
    expect(await failure([{ $bucketAuto: { groupBy: '$_id', buckets: 1, output: { r: { $sum: { $divide: [1, '$v'] } } } } }])).toEqual(DIVIDE_CLASSIC);
  });

  test('$project: 2 for $divide, 16610 for $mod, 5733415 for a Decimal128 $mod', async () => {
    expect(await failure([{ $project: { r: { $divide: [1, '$v'] } } }])).toEqual(DIVIDE_CLASSIC);
    expect(await failure([{ $project: { r: { $mod: [1, '$v'] } } }])).toEqual(MOD_CLASSIC);
    expect(await failure([{ $project: { r: { $mod: [1, '$d'] } } }])).toEqual({
      code: 5733415,
      codeName: 'Location5733415',
      errmsg: "PlanExecutor error during aggregation :: caused by :: can't $mod by zero",
    });
  });
});
