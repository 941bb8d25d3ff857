/**
 * The operator rules of Cosmos DB mode (`queryOperators`, `expressionOperators`) on every command
 * that carries a filter, a pipeline or a projection, through the driver: 115 with the same
 * message wherever the operator appears; each rule switched off, and mongodb mode, behave as mongod.
 */
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, seed, startHarness, type Harness } from './harness.js';

let cosmos: Harness;
let mongodb: Harness;
let loose: Harness;
let queryOff: Harness;
let expressionOff: Harness;
beforeAll(async () => {
  cosmos = await startHarness({ compat: 'cosmos' });
  mongodb = await startHarness();
  // bulkWrite and $lookup pipelines have rules of their own: off here, so the filters inside are reached.
  loose = await startHarness({ compat: 'cosmos', cosmos: { rules: { unsupportedCommands: false, lookupPipeline: false } } });
  queryOff = await startHarness({ compat: 'cosmos', cosmos: { rules: { queryOperators: false } } });
  expressionOff = await startHarness({ compat: 'cosmos', cosmos: { rules: { expressionOperators: false } } });
  for (const h of [cosmos, mongodb, loose, queryOff, expressionOff]) await seed(h.db, 'c', [{ _id: 1, a: 5, loc: [1, 1] }, { _id: 2, a: 6, loc: [9, 9] }]);
});
afterAll(async () => {
  for (const h of [cosmos, mongodb, loose, queryOff, expressionOff]) await h.close();
});

const refused = (op: string) => ({ code: 115, codeName: 'CommandNotSupported', errmsg: `The query operator ${op} is not supported.` });

/** Each command kind with a filter holding `filter`. */
function commandsWith(h: Harness, filter: Document): ReadonlyArray<readonly [string, () => Promise<unknown>]> {
  const c = h.db.collection('c');
  return [
    ['find', () => c.find(filter).toArray()],
    ['aggregate $match', () => c.aggregate([{ $match: filter }]).toArray()],
    ['aggregate $facet $match', () => c.aggregate([{ $facet: { x: [{ $match: filter }] } }]).toArray()],
    ['count', () => h.db.command({ count: 'c', query: filter })],
    ['distinct', () => c.distinct('a', filter)],
    ['update', () => c.updateMany(filter, { $set: { b: 1 } })],
    ['delete', () => c.deleteMany(filter)],
    ['findAndModify', () => c.findOneAndUpdate(filter, { $set: { b: 1 } })],
    ['explain find', () => h.db.command({ explain: { find: 'c', filter } })],
  ];
}

describe('queryOperators on every filter', () => {
  test.each(['find', 'aggregate $match', 'aggregate $facet $match', 'count', 'distinct', 'update', 'delete', 'findAndModify', 'explain find'])(
    '%s: $where, $jsonSchema and $bitsAllSet are 115 at any depth',
    async (name) => {
      for (const [filter, op] of [
        [{ $where: 'true' }, '$where'],
        [{ $and: [{ a: 5 }, { $jsonSchema: {} }] }, '$jsonSchema'],
        [{ a: { $not: { $bitsAllSet: 1 } } }, '$bitsAllSet'],
      ] as const) {
        const run = commandsWith(cosmos, filter).find(([n]) => n === name)![1];
        expect(await errorOf(run)).toMatchObject(refused(op));
      }
    },
  );

  test('the legacy geo shapes inside $geoWithin are refused; $geometry runs', async () => {
    const c = cosmos.db.collection('c');
    expect(await errorOf(() => c.find({ loc: { $geoWithin: { $box: [[0, 0], [2, 2]] } } }).toArray())).toMatchObject(refused('$box'));
    expect(await errorOf(() => c.find({ loc: { $geoWithin: { $centerSphere: [[0, 0], 1] } } }).toArray())).toMatchObject(refused('$centerSphere'));
    const polygon = { type: 'Polygon', coordinates: [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]] };
    expect(await c.find({ loc: { $geoWithin: { $geometry: polygon } } }).toArray()).toEqual([{ _id: 1, a: 5, loc: [1, 1] }]);
  });

  test("bulkWrite's filters and a $lookup sub-pipeline's $match are checked too", async () => {
    const ns = `${loose.db.databaseName}.c`;
    const bulk = await errorOf(() =>
      loose.client.db('admin').command({ bulkWrite: 1, ops: [{ update: 0, filter: { $where: 'true' }, updateMods: { $set: { b: 1 } } }], nsInfo: [{ ns }] }),
    );
    expect(bulk).toMatchObject(refused('$where'));
    const lookup = loose.db.collection('c').aggregate([{ $lookup: { from: 'c', pipeline: [{ $match: { $where: 'true' } }], as: 'j' } }]);
    expect(await errorOf(() => lookup.toArray())).toMatchObject(refused('$where'));
  });

  test('a filter of supported operators runs everywhere', async () => {
    for (const [, run] of commandsWith(cosmos, { a: { $gte: 7 } })) await run();
    expect(await cosmos.db.collection('c').countDocuments({ $or: [{ a: 5 }, { a: { $in: [6] } }] })).toBe(2);
  });

  test('switched off, and in mongodb mode, $bitsAllSet runs on every command', async () => {
    for (const h of [queryOff, mongodb]) {
      expect(await h.db.collection('c').find({ a: { $bitsAllSet: 1 } }).toArray()).toEqual([{ _id: 1, a: 5, loc: [1, 1] }]);
      expect((await h.db.command({ count: 'c', query: { a: { $bitsAllSet: 2 } } })).n).toBe(1);
      expect((await h.db.collection('c').updateMany({ a: { $bitsAllSet: 4 } }, { $set: { b: 1 } })).modifiedCount).toBe(2);
    }
  });
});

describe('expressionOperators', () => {
  const META = { code: 115, codeName: 'CommandNotSupported', errmsg: 'The operator $meta is not supported.' };

  test('$meta is 115 in a pipeline, a find projection and a find sort; $literal holds it as data', async () => {
    const c = cosmos.db.collection('c');
    expect(await errorOf(() => c.aggregate([{ $project: { k: { $meta: 'indexKey' } } }]).toArray())).toMatchObject(META);
    expect(await errorOf(() => c.find({}, { projection: { k: { $meta: 'indexKey' } } }).toArray())).toMatchObject(META);
    expect(await errorOf(() => c.find({}).sort({ s: { $meta: 'textScore' } }).toArray())).toMatchObject(META);
    expect(await c.aggregate([{ $match: { _id: 1 } }, { $project: { k: { $literal: { $meta: 'x' } } } }]).toArray()).toEqual([{ _id: 1, k: { $meta: 'x' } }]);
  });

  test('switched off, and in mongodb mode, $meta reaches the engine', async () => {
    for (const h of [expressionOff, mongodb]) {
      const docs = await h.db.collection('c').aggregate([{ $match: { _id: 1 } }, { $addFields: { k: { $meta: 'indexKey' } } }, { $project: { a: 1, k: 1 } }]).toArray();
      expect(docs).toEqual([{ _id: 1, a: 5 }]);
    }
  });
});

describe('indexCompoundFields', () => {
  test('a compound index of 9 fields is 67 with the page text; 8 fields are built; mongodb mode builds 9', async () => {
    const nine = { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1 };
    const err = await errorOf(() => cosmos.db.collection('ci').createIndex(nine));
    expect([err.code, err.codeName, err.errmsg]).toEqual([67, 'CannotCreateIndex', "The request to create an index can't be completed: a compound index holds at most 8 fields, not 9."]);
    const { i: _i, ...eight } = nine;
    expect(await cosmos.db.collection('ci').createIndex(eight)).toBe('a_1_b_1_c_1_d_1_e_1_f_1_g_1_h_1');
    expect(await mongodb.db.collection('ci').createIndex(nine)).toBe('a_1_b_1_c_1_d_1_e_1_f_1_g_1_h_1_i_1');
  });
});

describe('the commands every feature-support page marks "No"', () => {
  test.each(['mapReduce', 'renameCollection', 'killOp', 'connectionStatus', 'listCommands'])('%s is 115 at every version', async (name) => {
    for (const serverVersion of ['5.0', '6.0', '7.0'] as const) {
      const h = await startHarness({ compat: 'cosmos', cosmos: { serverVersion } });
      try {
        const err = await errorOf(() => h.client.db('admin').command({ [name]: name === 'renameCollection' ? 'a.b' : 1 }));
        expect([err.code, err.codeName, err.errmsg]).toEqual([115, 'CommandNotSupported', `Command ${name} not supported.`]);
      } finally {
        await h.close();
      }
    }
  });
});
