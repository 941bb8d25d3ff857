/**
 * The stages that read other collections through the driver: `$lookup` (equality join with and
 * without an index on the foreign field, `let` + `pipeline`, views), `$unionWith`,
 * `$graphLookup`, their errors, and explain describing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('orders').insertMany([
    { _id: 1, item: 'almonds', qty: 2 },
    { _id: 2, item: ['pecans', 'bread'], qty: 1 },
    { _id: 3 },
  ]);
  await db.collection('inventory').insertMany([
    { _id: 10, sku: 'almonds', stock: 120 },
    { _id: 11, sku: 'bread', stock: 80 },
    { _id: 12, sku: 'pecans', stock: 70 },
    { _id: 13, sku: null },
    { _id: 14 },
  ]);
  await db.collection('indexed_inventory').insertMany([
    { _id: 10, sku: 'almonds', stock: 120 },
    { _id: 11, sku: 'bread', stock: 80 },
    { _id: 12, sku: 'pecans', stock: 70 },
  ]);
  await db.collection('indexed_inventory').createIndex({ sku: 1 });
  await db.createCollection('in_stock', { viewOn: 'inventory', pipeline: [{ $match: { stock: { $gte: 75 } } }] });
  await db.collection('emp').insertMany([
    { _id: 1, name: 'dev', boss: 'eliot' },
    { _id: 2, name: 'eliot', boss: 'ron' },
    { _id: 3, name: 'ron', boss: 'andrew' },
    { _id: 4, name: 'andrew', boss: null },
  ]);
});
afterAll(async () => {
  await h.close();
});

describe('$lookup', () => {
  it('joins on localField/foreignField: arrays element-wise, missing matches null and missing', async () => {
    const out = await db
      .collection('orders')
      .aggregate([{ $lookup: { from: 'inventory', localField: 'item', foreignField: 'sku', as: 'stock' } }, { $project: { ids: '$stock._id' } }])
      .toArray();
    expect(out).toEqual([
      { _id: 1, ids: [10] },
      { _id: 2, ids: [11, 12] },
      { _id: 3, ids: [13, 14] },
    ]);
  });

  it('gives the same documents through an index on the foreign field', async () => {
    const out = await db
      .collection('orders')
      .aggregate([{ $match: { _id: { $lt: 3 } } }, { $lookup: { from: 'indexed_inventory', localField: 'item', foreignField: 'sku', as: 'stock' } }])
      .toArray();
    expect(out).toEqual([
      { _id: 1, item: 'almonds', qty: 2, stock: [{ _id: 10, sku: 'almonds', stock: 120 }] },
      { _id: 2, item: ['pecans', 'bread'], qty: 1, stock: [{ _id: 11, sku: 'bread', stock: 80 }, { _id: 12, sku: 'pecans', stock: 70 }] },
    ]);
  });

  it('runs let + pipeline with the variables in $expr', async () => {
    const out = await db
      .collection('orders')
      .aggregate([
        { $match: { _id: 1 } },
        { $lookup: { from: 'inventory', let: { want: '$item', q: '$qty' }, pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$sku', '$$want'] }, { $gt: ['$stock', '$$q'] }] } } }, { $project: { _id: 0, stock: 1, q: '$$q' } }], as: 'hit' } },
      ])
      .toArray();
    expect(out).toEqual([{ _id: 1, item: 'almonds', qty: 2, hit: [{ stock: 120, q: 2 }] }]);
  });

  it('reads a view through its pipeline', async () => {
    const out = await db
      .collection('orders')
      .aggregate([{ $match: { _id: 2 } }, { $lookup: { from: 'in_stock', localField: 'item', foreignField: 'sku', as: 's' } }, { $project: { ids: '$s._id' } }])
      .toArray();
    expect(out).toEqual([{ _id: 2, ids: [11] }]);
  });

  it('refuses $out in its sub-pipeline (51047)', async () => {
    const err = await errorOf(() => db.collection('orders').aggregate([{ $lookup: { from: 'inventory', pipeline: [{ $out: 'x' }], as: 'j' } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([51047, "$out is not allowed within a $lookup's sub-pipeline"]);
  });

  it('is described by explain', async () => {
    const stage = { $lookup: { from: 'inventory', localField: 'item', foreignField: 'sku', as: 'stock' } };
    const reply = await db.command({ explain: { aggregate: 'orders', pipeline: [stage], cursor: {} }, verbosity: 'queryPlanner' });
    expect((reply.stages as unknown[])[1]).toEqual(stage);
  });
});

describe('$unionWith', () => {
  it('adds another collection after the input, through its pipeline', async () => {
    const out = await db
      .collection('orders')
      .aggregate([{ $project: { _id: 1 } }, { $unionWith: { coll: 'emp', pipeline: [{ $match: { boss: 'ron' } }, { $project: { name: 1 } }] } }])
      .toArray();
    expect(out).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 2, name: 'eliot' }]);
  });

  it('names the wrong type of coll', async () => {
    const err = await errorOf(() => db.collection('orders').aggregate([{ $unionWith: { coll: 5 } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([14, "BSON field '$unionWith.coll' is the wrong type 'int', expected type 'string'"]);
  });
});

describe('$graphLookup', () => {
  it('follows connectFromField to connectToField, with the depths as Int64', async () => {
    const out = await db
      .collection('emp')
      .aggregate([
        { $match: { _id: 1 } },
        { $graphLookup: { from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name', as: 'chain', depthField: 'd' } },
        { $unwind: '$chain' },
        { $project: { _id: 0, name: '$chain.name', d: '$chain.d', type: { $type: '$chain.d' } } },
      ])
      .toArray();
    expect(out).toEqual([
      { name: 'eliot', d: 0, type: 'long' },
      { name: 'ron', d: 1, type: 'long' },
      { name: 'andrew', d: 2, type: 'long' },
    ]);
  });

  it('refuses a negative maxDepth (40101)', async () => {
    const err = await errorOf(() =>
      db.collection('emp').aggregate([{ $graphLookup: { from: 'emp', startWith: '$boss', connectFromField: 'boss', connectToField: 'name', as: 'c', maxDepth: -1 } }]).toArray(),
    );
    expect([err.code, err.errmsg]).toEqual([40101, 'maxDepth requires a nonnegative argument, found: -1']);
  });
});
