/**
 * Update operators, array filters, the positional `$` and find projections under a collation,
 * end to end through the driver: the command's `collation` (updateOne, updateMany,
 * findOneAndUpdate, the driver's bulkWrite, 8.0's bulkWrite command), the collection's default
 * collation, and `$jsonSchema`, which stays binary as in mongod.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
const CI = { locale: 'en', strength: 2 } as const;
const BASE = { locale: 'en', strength: 1 } as const;
const NUMERIC = { locale: 'en', numericOrdering: true } as const;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

describe('update operators under the command collation', () => {
  it("updateOne: $pull 'A' removes 'a'; $addToSet 'ABC' into ['abc'] is a no-op; without it, binary", async () => {
    const c = db.collection<{ _id: number; a: string[]; t: string[] }>('u1');
    await c.insertOne({ _id: 1, a: ['a', 'A', 'b'], t: ['abc'] });
    const pulled = await c.updateOne({ _id: 1 }, { $pull: { a: 'A' } }, { collation: CI });
    expect([pulled.matchedCount, pulled.modifiedCount]).toEqual([1, 1]);
    const added = await c.updateOne({ _id: 1 }, { $addToSet: { t: 'ABC' } }, { collation: CI });
    expect([added.matchedCount, added.modifiedCount]).toEqual([1, 0]);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: ['b'], t: ['abc'] });
    await c.updateOne({ _id: 1 }, { $addToSet: { t: 'ABC' }, $pull: { a: 'B' } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: ['b'], t: ['abc', 'ABC'] });
  });

  it('updateMany: $pullAll, a $pull condition, $min/$max and arrayFilters', async () => {
    const c = db.collection<{ _id: number; tags: string[]; people: { n: string }[]; team: { n: string; k: number }[]; lo: string; hi: string }>('u2');
    await c.insertMany([
      { _id: 1, tags: ['Red', 'green', 'BLUE'], people: [{ n: 'ann' }, { n: 'bob' }], team: [{ n: 'ann', k: 0 }, { n: 'bob', k: 0 }], lo: 'é', hi: 'e' },
      { _id: 2, tags: ['red'], people: [{ n: 'BOB' }], team: [{ n: 'ANN', k: 0 }], lo: 'f', hi: 'd' },
    ]);
    const r = await c.updateMany(
      {},
      { $pullAll: { tags: ['RED'] }, $pull: { people: { n: { $in: ['BOB'] } } }, $min: { lo: 'E' }, $max: { hi: 'É' }, $inc: { 'team.$[p].k': 1 } },
      { collation: BASE, arrayFilters: [{ 'p.n': 'Ann' }] },
    );
    expect([r.matchedCount, r.modifiedCount]).toEqual([2, 2]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      // 'E' equals 'é' and 'É' equals 'e' at strength 1: $min and $max leave them.
      { _id: 1, tags: ['green', 'BLUE'], people: [{ n: 'ann' }], team: [{ n: 'ann', k: 1 }, { n: 'bob', k: 0 }], lo: 'é', hi: 'e' },
      { _id: 2, tags: [], people: [], team: [{ n: 'ANN', k: 1 }], lo: 'E', hi: 'É' },
    ]);
  });

  it('findOneAndUpdate: $push with $sort under numericOrdering, the positional $ matched under it', async () => {
    const c = db.collection<{ _id: number; v: string[]; names: string[] }>('u3');
    await c.insertOne({ _id: 1, v: ['v9', 'v1'], names: ['ann', 'bob'] });
    const after = await c.findOneAndUpdate(
      { names: 'BOB' },
      { $push: { v: { $each: ['v10'], $sort: 1 } }, $set: { 'names.$': 'Robert' } },
      { collation: { ...NUMERIC, strength: 2 }, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 1, v: ['v1', 'v9', 'v10'], names: ['ann', 'Robert'] });
    await c.updateOne({ _id: 1 }, { $push: { v: { $each: [], $sort: -1 } } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, v: ['v9', 'v10', 'v1'], names: ['ann', 'Robert'] });
  });

  it("the driver's bulkWrite passes each operation's collation", async () => {
    const c = db.collection<{ _id: number; a: string[] }>('u4');
    await c.insertMany([
      { _id: 1, a: ['x', 'X', 'y'] },
      { _id: 2, a: ['Y'] },
    ]);
    const r = await c.bulkWrite([
      { updateOne: { filter: { _id: 1 }, update: { $set: { 'a.$[e]': 'z' } }, arrayFilters: [{ e: 'X' }], collation: CI } },
      { updateMany: { filter: {}, update: { $pull: { a: 'y' } }, collation: CI } },
      { updateOne: { filter: { _id: 2 }, update: { $addToSet: { a: 'y' } } } },
    ]);
    expect([r.matchedCount, r.modifiedCount]).toEqual([4, 4]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: ['z', 'z'] },
      { _id: 2, a: ['y'] },
    ]);
  });

  it('the bulkWrite command applies an update operation under its collation', async () => {
    await db.collection('u5').insertOne({ _id: 1, a: ['q', 'Q', 'r'] });
    const reply = await h.client.db('admin').command({
      bulkWrite: 1,
      ops: [
        { update: 0, filter: { _id: 1 }, updateMods: { $pull: { a: 'Q' } }, collation: CI },
        { update: 0, filter: { _id: 1 }, updateMods: { $addToSet: { a: 'R' } }, collation: CI },
      ],
      nsInfo: [{ ns: `${db.databaseName}.u5` }],
    });
    expect(reply.cursor.firstBatch).toEqual([
      { ok: 1, idx: 0, n: 1, nModified: 1 },
      { ok: 1, idx: 1, n: 1, nModified: 0 },
    ]);
    expect(await db.collection('u5').findOne({ _id: 1 })).toEqual({ _id: 1, a: ['r'] });
  });

  it('an upsert seeds from the filter as given; $setOnInsert is unaffected', async () => {
    const c = db.collection('u6');
    const r = await c.updateOne({ _id: 1, name: 'ANN' }, { $setOnInsert: { x: 'A' }, $addToSet: { t: { $each: ['k', 'K'] } } }, { upsert: true, collation: CI });
    expect(r.upsertedId).toBe(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'ANN', t: ['k'], x: 'A' });
  });
});

describe('the collection default collation', () => {
  it('applies to update operators without the option; { locale: "simple" } makes them binary', async () => {
    await db.createCollection('ci', { collation: CI });
    const c = db.collection<{ _id: number; a: string[]; t: string[]; names: string[] }>('ci');
    await c.insertOne({ _id: 1, a: ['a', 'A', 'b'], t: ['abc'], names: ['ann', 'bob'] });
    await c.updateOne({ _id: 1 }, { $pull: { a: 'A' }, $addToSet: { t: 'ABC' } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: ['b'], t: ['abc'], names: ['ann', 'bob'] });
    await c.updateOne({ names: 'BOB' }, { $set: { 'names.$': 'Bo' } });
    await c.updateOne({ _id: 1 }, { $set: { 'a.$[e]': 'c' } }, { arrayFilters: [{ e: 'B' }] });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: ['c'], t: ['abc'], names: ['ann', 'Bo'] });
    await c.updateOne({ _id: 1 }, { $addToSet: { t: 'ABC' }, $pull: { a: 'C' } }, { collation: { locale: 'simple' } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: ['c'], t: ['abc', 'ABC'], names: ['ann', 'Bo'] });
    const after = await c.findOneAndUpdate({ _id: 1 }, { $pull: { t: 'abc' } }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 1, a: ['c'], t: [], names: ['ann', 'Bo'] });
  });
});

describe('find projections under the collation', () => {
  it('$elemMatch, the positional $ and expressions, with the option or the default', async () => {
    const c = db.collection('p1');
    await c.insertOne({ _id: 1, a: ['a', 'b', 'B'], s: 'x' });
    const projection = { a: { $elemMatch: { $eq: 'B' } }, same: { $eq: ['$s', 'X'] } };
    expect(await c.find({}, { projection, collation: CI }).toArray()).toEqual([{ _id: 1, a: ['b'], same: true }]);
    expect(await c.find({}, { projection }).toArray()).toEqual([{ _id: 1, a: ['B'], same: false }]);
    expect(await c.find({ a: 'B' }, { projection: { 'a.$': 1 }, collation: CI }).toArray()).toEqual([{ _id: 1, a: ['b'] }]);
    expect(await c.find({ a: 'B' }, { projection: { 'a.$': 1 } }).toArray()).toEqual([{ _id: 1, a: ['B'] }]);
    const fam = await c.findOneAndUpdate({ a: 'B' }, { $set: { s: 'y' } }, { projection: { a: { $elemMatch: { $eq: 'B' } } }, collation: CI });
    expect(fam).toEqual({ _id: 1, a: ['b'] });
    await db.createCollection('p2', { collation: CI });
    await db.collection('p2').insertOne({ _id: 1, a: ['a', 'b', 'B'] });
    expect(await db.collection('p2').find({ a: 'B' }, { projection: { 'a.$': 1 } }).toArray()).toEqual([{ _id: 1, a: ['b'] }]);
  });
});

describe('$jsonSchema', () => {
  it('compares binary under any collation (mongod: enum is $_internalSchemaEq, always simple)', async () => {
    const c = db.collection('js');
    await c.insertMany([
      { _id: 1, s: 'x' },
      { _id: 2, s: 'X' },
    ]);
    const filter = { $jsonSchema: { properties: { s: { enum: ['x'] } } } };
    expect((await c.find(filter, { collation: CI }).toArray()).map((d) => d._id)).toEqual([1]);
    expect((await c.find({ $and: [filter, { s: 'X' }] }, { collation: CI }).toArray()).map((d) => d._id)).toEqual([1]);
  });
});
