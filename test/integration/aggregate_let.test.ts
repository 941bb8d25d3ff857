/**
 * `aggregate` with `let`: command-level variables usable as `$$name` in every stage, in `$match`
 * through `$expr`, across getMore batches, in `$out` pipelines and in the collectionless form;
 * mongod's errors for bad `let` documents and undefined variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32 } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('items').insertMany([
    { _id: 1, k: 'a', v: 10 },
    { _id: 2, k: 'b', v: 20 },
    { _id: 3, k: 'a', v: 30 },
  ]);
});
afterAll(async () => {
  await h.close();
});

describe('aggregate let', () => {
  it('is read by $match $expr and by $project (the spec test)', async () => {
    const docs = await db
      .collection('items')
      .aggregate(
        [{ $match: { $expr: { $eq: ['$_id', '$$id'] } } }, { $project: { _id: 0, x: '$$x', y: '$$y', rand: '$$rand' } }],
        { let: { id: 1, x: 'foo', y: { $literal: '$bar' }, rand: { $rand: {} } } },
      )
      .toArray();
    expect(docs.length).toBe(1);
    expect(docs[0]!.x).toBe('foo');
    expect(docs[0]!.y).toBe('$bar');
    expect(typeof docs[0]!.rand).toBe('number');
    expect(docs[0]!.rand >= 0 && docs[0]!.rand < 1).toBe(true);
  });

  it('is read by $addFields, $group and $replaceWith, keeping BSON types', async () => {
    const docs = await db
      .collection('items')
      .aggregate(
        [
          { $addFields: { w: { $add: ['$v', '$$inc'] } } },
          { $group: { _id: { $concat: ['$k', '$$suffix'] }, total: { $sum: '$w' }, d: { $first: '$$d' } } },
          { $sort: { _id: 1 } },
          { $replaceWith: { key: '$_id', total: '$total', d: '$d', tag: '$$obj.tag' } },
        ],
        { let: { inc: 1, suffix: '-x', d: new Double(2), obj: { tag: 't' } }, promoteValues: false },
      )
      .toArray();
    expect(docs).toEqual([
      { key: 'a-x', total: new Int32(42), d: new Double(2), tag: 't' },
      { key: 'b-x', total: new Int32(21), d: new Double(2), tag: 't' },
    ]);
  });

  it('a variable may use the ones before it, and $$NOW', async () => {
    const docs = await db
      .collection('items')
      .aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, b: '$$b', same: { $eq: ['$$when', '$$NOW'] } } }], {
        let: { a: 2, b: { $multiply: ['$$a', 10] }, when: '$$NOW' },
      })
      .toArray();
    expect(docs).toEqual([{ b: 20, same: true }]);
  });

  it('stays in scope across getMore batches', async () => {
    const cursor = db.collection('items').aggregate([{ $project: { _id: 1, tag: '$$tag' } }], { let: { tag: 'T' }, batchSize: 1 });
    expect(await cursor.toArray()).toEqual([
      { _id: 1, tag: 'T' },
      { _id: 2, tag: 'T' },
      { _id: 3, tag: 'T' },
    ]);
  });

  it('works with $out (the spec test)', async () => {
    await db.collection('items').aggregate([{ $match: { $expr: { $eq: ['$_id', '$$id'] } } }, { $project: { _id: 1 } }, { $out: 'let_out' }], { let: { id: 1 } }).toArray();
    expect(await db.collection('let_out').find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('works in the collectionless form ($documents)', async () => {
    const docs = await db.aggregate([{ $documents: '$$rows' }, { $set: { n: '$$n' } }], { let: { rows: [{ a: 1 }, { a: 2 }], n: 5 } }).toArray();
    expect(docs).toEqual([{ a: 1, n: 5 }, { a: 2, n: 5 }]);
  });

  it('an empty let is accepted', async () => {
    expect(await db.collection('items').aggregate([{ $count: 'n' }], { let: {} }).toArray()).toEqual([{ n: 3 }]);
  });

  it('an undefined variable is 17276', async () => {
    const err = await errorOf(() => db.collection('items').aggregate([{ $project: { a: '$$nope' } }], { let: { x: 1 } }).toArray());
    expect([err.code, err.codeName, err.errmsg]).toEqual([17276, 'Location17276', 'Invalid $project :: caused by :: Use of undefined variable: nope']);
  });

  it('a variable that reads a field is 4890500', async () => {
    const err = await errorOf(() => db.collection('items').aggregate([{ $match: {} }], { let: { x: '$v' } }).toArray());
    expect([err.code, err.errmsg]).toEqual([
      4890500,
      'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.',
    ]);
  });

  it('a bad variable name is refused with the let context', async () => {
    const err = await errorOf(() => db.collection('items').aggregate([{ $match: {} }], { let: { Bad: 1 } }).toArray());
    expect([err.code, err.errmsg]).toEqual([9, "Invalid 'let' parameter :: caused by :: 'Bad' starts with an invalid character for a user variable name"]);
  });

  it('let is checked before the pipeline', async () => {
    const err = await errorOf(() => db.collection('items').aggregate([{ $nope: 1 }], { let: { x: '$v' } }).toArray());
    expect(err.code).toBe(4890500);
  });

  it('a let that is not an object is a type error', async () => {
    const err = await errorOf(() => db.command({ aggregate: 'items', pipeline: [], cursor: {}, let: 1 }));
    expect([err.code, err.codeName]).toEqual([14, 'TypeMismatch']);
  });
});
