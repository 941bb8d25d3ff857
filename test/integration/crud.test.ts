/**
 * The CRUD path through the official driver: insert, find/getMore/killCursors, update, delete,
 * findAndModify, count, distinct and aggregate, with exact replies and errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long, ObjectId, type Document } from 'mongodb';
import { startHarness, errorOf, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('insert', () => {
  it('generates an ObjectId _id first when absent and moves a given _id first', async () => {
    const coll = h.db.collection('ins_id');
    const res = await coll.insertOne({ a: 1 });
    expect(res.insertedId).toBeInstanceOf(ObjectId);
    await h.db.command({ insert: 'ins_id', documents: [{ b: 2 }, { x: 1, _id: 'given' }] });
    const docs = await coll.find().toArray();
    expect(docs).toHaveLength(3);
    expect(Object.keys(docs[1]!)).toEqual(['_id', 'b']);
    expect(docs[1]!._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(docs[2]!)).toEqual(['_id', 'x']);
    expect(docs[2]).toEqual({ _id: 'given', x: 1 });
  });

  it('ordered insert stops at the first duplicate with a full write error', async () => {
    const reply = await h.db.command({ insert: 'ins_ord', documents: [{ _id: 1 }, { _id: 1 }, { _id: 2 }] });
    expect(reply).toEqual({
      n: 1,
      writeErrors: [
        {
          index: 1,
          code: 11000,
          errmsg: `E11000 duplicate key error collection: ${h.db.databaseName}.ins_ord index: _id_ dup key: { _id: 1 }`,
          keyPattern: { _id: 1 },
          keyValue: { _id: 1 },
        },
      ],
      ok: 1,
    });
    expect(await h.db.collection('ins_ord').countDocuments()).toBe(1);
  });

  it('unordered insert goes on after errors', async () => {
    const reply = await h.db.command({ insert: 'ins_unord', documents: [{ _id: 1 }, { _id: 1 }, { _id: 2 }, { _id: 2 }, { _id: 3 }], ordered: false });
    expect(reply.n).toBe(3);
    expect(reply.writeErrors.map((e: Document) => [e.index, e.code])).toEqual([
      [1, 11000],
      [3, 11000],
    ]);
  });

  it('numerically equal _ids are the same key', async () => {
    const coll = h.db.collection('ins_numeq');
    await coll.insertOne({ _id: 1 });
    const err = await errorOf(() => coll.insertOne({ _id: Long.fromNumber(1) }));
    expect(err.code).toBe(11000);
    const err2 = await errorOf(() => coll.insertOne({ _id: 1.0 }));
    expect(err2.code).toBe(11000);
  });

  it('rejects an array _id (53) and an empty batch (16)', async () => {
    const reply = await h.db.command({ insert: 'ins_bad', documents: [{ _id: [1, 2] }] });
    expect(reply.writeErrors[0]).toEqual({ index: 0, code: 53, errmsg: "The '_id' value cannot be of type array" });
    const err = await errorOf(() => h.db.command({ insert: 'ins_bad', documents: [] }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([16, 'InvalidLength', 'Write batch sizes must be between 1 and 100000. Got 0 operations.']);
  });
});

describe('find, getMore, killCursors', () => {
  beforeAll(async () => {
    const docs = Array.from({ length: 250 }, (_, i) => ({ _id: i, n: i, parity: i % 2 === 0 ? 'even' : 'odd', sub: { v: i % 10 } }));
    await h.db.collection('many').insertMany(docs);
  });

  it('returns a first batch of 101 and the rest through getMore', async () => {
    const first = await h.db.command({ find: 'many' }, { promoteLongs: false });
    expect(first.cursor.firstBatch).toHaveLength(101);
    expect(first.cursor.ns).toBe(`${h.db.databaseName}.many`);
    expect(first.cursor.id).toBeInstanceOf(Long);
    expect(first.cursor.id.isZero()).toBe(false);
    const more = await h.db.command({ getMore: first.cursor.id, collection: 'many', batchSize: 100 }, { promoteLongs: false });
    expect(more.cursor.nextBatch).toHaveLength(100);
    expect(more.cursor.nextBatch[0]._id).toBe(101);
    const last = await h.db.command({ getMore: first.cursor.id, collection: 'many' }, { promoteLongs: false });
    expect(last.cursor.nextBatch).toHaveLength(49);
    expect(last.cursor.id.isZero()).toBe(true);
    const err = await errorOf(() => h.db.command({ getMore: first.cursor.id, collection: 'many' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([43, 'CursorNotFound', `cursor id ${first.cursor.id.toString()} not found`]);
  });

  it('filter, projection, sort, skip, limit', async () => {
    const docs = await h.db
      .collection('many')
      .find({ parity: 'odd', n: { $lt: 20 } }, { projection: { _id: 0, n: 1, 'sub.v': 1 } })
      .sort({ n: -1 })
      .skip(1)
      .limit(3)
      .toArray();
    expect(docs).toEqual([
      { n: 17, sub: { v: 7 } },
      { n: 15, sub: { v: 5 } },
      { n: 13, sub: { v: 3 } },
    ]);
  });

  it('batchSize and singleBatch', async () => {
    const reply = await h.db.command({ find: 'many', batchSize: 5 }, { promoteLongs: false });
    expect(reply.cursor.firstBatch).toHaveLength(5);
    await h.db.command({ killCursors: 'many', cursors: [reply.cursor.id] }, { promoteLongs: false });
    const single = await h.db.command({ find: 'many', batchSize: 5, singleBatch: true }, { promoteLongs: false });
    expect(single.cursor.firstBatch).toHaveLength(5);
    expect(single.cursor.id.isZero()).toBe(true);
    const zero = await h.db.command({ find: 'many', batchSize: 0 }, { promoteLongs: false });
    expect(zero.cursor.firstBatch).toHaveLength(0);
    expect(zero.cursor.id.isZero()).toBe(false);
  });

  it('killCursors reports killed and not found', async () => {
    const reply = await h.db.command({ find: 'many', batchSize: 1 }, { promoteLongs: false });
    const res = await h.db.command({ killCursors: 'many', cursors: [reply.cursor.id, Long.fromNumber(12345)] }, { promoteLongs: false });
    expect(res).toEqual({
      cursorsKilled: [reply.cursor.id],
      cursorsNotFound: [Long.fromNumber(12345)],
      cursorsAlive: [],
      cursorsUnknown: [],
      ok: 1,
    });
  });

  it('getMore on another namespace is 13', async () => {
    const reply = await h.db.command({ find: 'many', batchSize: 1 }, { promoteLongs: false });
    const err = await errorOf(() => h.db.command({ getMore: reply.cursor.id, collection: 'other' }));
    expect(err.code).toBe(13);
    expect(err.errmsg).toBe(
      `Requested getMore on namespace '${h.db.databaseName}.other', but cursor belongs to a different namespace ${h.db.databaseName}.many`,
    );
  });

  it('find on a missing collection returns nothing; negative limit is 2 BadValue (mongod 8.2)', async () => {
    const reply = await h.db.command({ find: 'nothing_here' }, { promoteLongs: false });
    expect(reply.cursor.firstBatch).toEqual([]);
    expect(reply.cursor.id.isZero()).toBe(true);
    const err = await errorOf(() => h.db.command({ find: 'many', limit: -1 }));
    expect([err.code, err.errmsg]).toEqual([2, "BSON field 'limit' value must be >= 0, actual value '-1'"]);
  });

  it('unknown find fields use the FindCommandRequest name', async () => {
    const err = await errorOf(() => h.db.command({ find: 'many', bogus: 1 }));
    expect([err.code, err.errmsg]).toEqual([40415, "BSON field 'FindCommandRequest.bogus' is an unknown field."]);
  });

  it('hint that names no index is 2 BadValue', async () => {
    const err = await errorOf(() => h.db.collection('many').find({}, { hint: 'nope_1' }).toArray());
    expect([err.code, err.errmsg]).toEqual([2, 'hint provided does not correspond to an existing index']);
  });

  it('count, countDocuments, estimatedDocumentCount, distinct', async () => {
    const coll = h.db.collection('many');
    expect(await coll.countDocuments({ parity: 'even' })).toBe(125);
    expect(await coll.countDocuments({}, { skip: 10, limit: 5 })).toBe(5);
    expect(await coll.estimatedDocumentCount()).toBe(250);
    expect(await h.db.command({ count: 'many', query: { n: { $gte: 240 } } })).toEqual({ n: 10, ok: 1 });
    expect(await coll.distinct('sub.v', { n: { $lt: 5 } })).toEqual([0, 1, 2, 3, 4]);
    expect(await coll.distinct('parity')).toEqual(['even', 'odd']);
  });
});

describe('update and delete', () => {
  it('replacement, $set/$unset/$inc, multi, upsert', async () => {
    const coll = h.db.collection('upd');
    await coll.insertMany([
      { _id: 1, a: 1, b: 'x' },
      { _id: 2, a: 2, b: 'y' },
      { _id: 3, a: 3, b: 'y' },
    ]);
    expect(await h.db.command({ update: 'upd', updates: [{ q: { _id: 1 }, u: { $set: { b: 'z' }, $inc: { a: 10 } } }] })).toEqual({ n: 1, nModified: 1, ok: 1 });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 11, b: 'z' });
    const multi = await coll.updateMany({ b: 'y' }, { $unset: { a: '' } });
    expect([multi.matchedCount, multi.modifiedCount]).toEqual([2, 2]);
    expect(await coll.find({ b: 'y' }).toArray()).toEqual([
      { _id: 2, b: 'y' },
      { _id: 3, b: 'y' },
    ]);
    const same = await coll.updateOne({ _id: 2 }, { $set: { b: 'y' } });
    expect([same.matchedCount, same.modifiedCount]).toEqual([1, 0]);
    await coll.replaceOne({ _id: 3 }, { c: true });
    expect(await coll.findOne({ _id: 3 })).toEqual({ _id: 3, c: true });
    const up = await h.db.command({ update: 'upd', updates: [{ q: { k: 'new' }, u: { $set: { v: 1 } }, upsert: true }] });
    expect(up.n).toBe(1);
    expect(up.nModified).toBe(0);
    expect(up.upserted[0].index).toBe(0);
    expect(up.upserted[0]._id).toBeInstanceOf(ObjectId);
    expect(await coll.findOne({ k: 'new' }, { projection: { _id: 0 } })).toEqual({ k: 'new', v: 1 });
  });

  it('update errors: $inc on a string, unknown modifier, _id change', async () => {
    const coll = h.db.collection('upd_err');
    await coll.insertOne({ _id: 1, s: 'text' });
    let reply = await h.db.command({ update: 'upd_err', updates: [{ q: { _id: 1 }, u: { $inc: { s: 1 } } }] });
    expect(reply.writeErrors[0].code).toBe(14);
    expect(reply.writeErrors[0].errmsg).toBe(
      "Plan executor error during update :: caused by :: Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string",
    );
    reply = await h.db.command({ update: 'upd_err', updates: [{ q: { _id: 1 }, u: { $foo: { s: 1 } } }] });
    expect(reply.writeErrors[0].code).toBe(9);
    reply = await h.db.command({ update: 'upd_err', updates: [{ q: { _id: 1 }, u: { $set: { _id: 2 } } }] });
    expect(reply.writeErrors[0].code).toBe(66);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, s: 'text' });
  });

  it('delete with limit 1 and 0; a bad limit is 9', async () => {
    const coll = h.db.collection('del');
    await coll.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    expect(await h.db.command({ delete: 'del', deletes: [{ q: { k: 1 }, limit: 1 }] })).toEqual({ n: 1, ok: 1 });
    expect(await h.db.command({ delete: 'del', deletes: [{ q: { k: 1 }, limit: 0 }] })).toEqual({ n: 2, ok: 1 });
    expect(await coll.countDocuments()).toBe(1);
    // The limit is parsed with the command (an IDL deserializer): a command error, nothing deleted.
    const err = await errorOf(() => h.db.command({ delete: 'del', deletes: [{ q: {}, limit: 2 }] }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([9, 'FailedToParse', 'The limit field in delete objects must be 0 or 1. Got 2']);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('findAndModify: update returning old/new, upsert, remove, errors', async () => {
    const coll = h.db.collection('fam');
    await coll.insertMany([
      { _id: 1, n: 5 },
      { _id: 2, n: 1 },
    ]);
    const r1 = await h.db.command({ findAndModify: 'fam', query: {}, sort: { n: 1 }, update: { $inc: { n: 1 } } }, { promoteLongs: false });
    expect(r1).toEqual({ lastErrorObject: { n: 1, updatedExisting: true }, value: { _id: 2, n: 1 }, ok: 1 });
    const r2 = await coll.findOneAndUpdate({ _id: 1 }, { $set: { n: 50 } }, { returnDocument: 'after' });
    expect(r2).toEqual({ _id: 1, n: 50 });
    const r3 = await h.db.command({ findAndModify: 'fam', query: { _id: 3 }, update: { $set: { n: 3 } }, upsert: true, new: true }, { promoteLongs: false });
    expect(r3).toEqual({ lastErrorObject: { n: 1, updatedExisting: false, upserted: 3 }, value: { _id: 3, n: 3 }, ok: 1 });
    const r4 = await h.db.command({ findAndModify: 'fam', query: { _id: 2 }, remove: true, fields: { n: 1, _id: 0 } }, { promoteLongs: false });
    expect(r4).toEqual({ lastErrorObject: { n: 1 }, value: { n: 2 }, ok: 1 });
    const r5 = await h.db.command({ findAndModify: 'fam', query: { _id: 99 }, remove: true }, { promoteLongs: false });
    expect(r5).toEqual({ lastErrorObject: { n: 0 }, value: null, ok: 1 });
    let err = await errorOf(() => h.db.command({ findAndModify: 'fam', query: {} }));
    expect([err.code, err.errmsg]).toEqual([9, 'Either an update or remove=true must be specified']);
    err = await errorOf(() => h.db.command({ findAndModify: 'fam', remove: true, update: { $set: { a: 1 } } }));
    expect([err.code, err.errmsg]).toEqual([9, 'Cannot specify both an update and remove=true']);
  });
});

describe('aggregate', () => {
  it('$match $group $sort $project $skip $limit $count', async () => {
    const coll = h.db.collection('agg');
    await coll.insertMany([
      { cat: 'a', v: 1 },
      { cat: 'b', v: 2 },
      { cat: 'a', v: 3 },
      { cat: 'c', v: 4 },
      { cat: 'b', v: 5 },
    ]);
    const grouped = await coll
      .aggregate([{ $match: { v: { $gte: 2 } } }, { $group: { _id: '$cat', total: { $sum: '$v' }, n: { $count: {} } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'a', total: 3, n: 1 },
      { _id: 'b', total: 7, n: 2 },
      { _id: 'c', total: 4, n: 1 },
    ]);
    const paged = await coll.aggregate([{ $sort: { v: -1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 0, v: 1 } }]).toArray();
    expect(paged).toEqual([{ v: 4 }, { v: 3 }]);
    expect(await coll.aggregate([{ $match: { cat: 'a' } }, { $count: 'howMany' }]).toArray()).toEqual([{ howMany: 2 }]);
  });

  it('an unknown stage is 40324; a missing cursor is 9', async () => {
    let err = await errorOf(() => h.db.collection('agg').aggregate([{ $bogus: {} }]).toArray());
    expect([err.code, err.errmsg]).toEqual([40324, "Unrecognized pipeline stage name: '$bogus'"]);
    err = await errorOf(() => h.db.command({ aggregate: 'agg', pipeline: [] }));
    expect([err.code, err.errmsg]).toEqual([9, "The 'cursor' option is required, except for aggregate with the explain argument"]);
  });

  it('aggregate cursors page through getMore', async () => {
    const coll = h.db.collection('agg_many');
    await coll.insertMany(Array.from({ length: 150 }, (_, i) => ({ i })));
    const all = await coll.aggregate([{ $match: {} }], { batchSize: 20 }).toArray();
    expect(all).toHaveLength(150);
    expect(all[149]!.i).toBe(149);
  });
});

describe('cursor limits', () => {
  it('a batch stops growing at 16 MiB', async () => {
    const big = 'x'.repeat(1024 * 1024);
    await h.db.collection('big_docs').insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, big })));
    const reply = await h.db.command({ find: 'big_docs' }, { promoteLongs: false });
    // 15 documents of just over 1 MiB fit in 16 MiB, the 16th does not.
    expect(reply.cursor.firstBatch).toHaveLength(15);
    const more = await h.db.command({ getMore: reply.cursor.id, collection: 'big_docs' }, { promoteLongs: false });
    expect(more.cursor.nextBatch).toHaveLength(5);
    expect(more.cursor.id.isZero()).toBe(true);
  });

  it('an idle cursor times out after cursorTimeoutMillis of server time', async () => {
    const t = await startHarness({ clock: 'manual' });
    try {
      await t.db.collection('c').insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i })));
      await t.client.db('admin').command({ setParameter: 1, cursorTimeoutMillis: 1000 });
      const reply = await t.db.command({ find: 'c', batchSize: 2 }, { promoteLongs: false });
      t.server.clock.advance(500);
      const more = await t.db.command({ getMore: reply.cursor.id, collection: 'c', batchSize: 2 }, { promoteLongs: false });
      expect(more.cursor.nextBatch).toEqual([{ _id: 2 }, { _id: 3 }]);
      t.server.clock.advance(1001);
      const err = await errorOf(() => t.db.command({ getMore: reply.cursor.id, collection: 'c' }));
      expect([err.code, err.codeName]).toEqual([43, 'CursorNotFound']);
    } finally {
      await t.close();
    }
  });
});

describe('query language wiring', () => {
  it('$expr works in find, update and delete filters', async () => {
    const coll = h.db.collection('expr');
    await coll.insertMany([
      { _id: 1, a: 5, b: 3 },
      { _id: 2, a: 1, b: 9 },
    ]);
    expect(await coll.find({ $expr: { $gt: ['$a', '$b'] } }).toArray()).toEqual([{ _id: 1, a: 5, b: 3 }]);
    const res = await coll.updateMany({ $expr: { $lt: ['$a', '$b'] } }, { $set: { small: true } });
    expect(res.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, a: 1, b: 9, small: true });
    expect((await coll.deleteMany({ $expr: { $eq: ['$a', 5] } })).deletedCount).toBe(1);
  });

  it('arrayFilters select the elements $[<id>] updates', async () => {
    const coll = h.db.collection('af');
    await coll.insertOne({ _id: 1, xs: [1, 2] });
    await coll.updateOne({ _id: 1 }, { $set: { 'xs.$[x]': 0 } }, { arrayFilters: [{ x: 1 }] });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, xs: [0, 2] });
  });

  it('a positional projection returns the matched element', async () => {
    const coll = h.db.collection('pos_proj');
    await coll.insertOne({ _id: 1, grades: [70, 85, 92] });
    expect(await coll.findOne({ grades: { $gte: 80 } }, { projection: { 'grades.$': 1 } })).toEqual({ _id: 1, grades: [85] });
  });

  it('a runtime aggregation error carries the executor prefix', async () => {
    const coll = h.db.collection('agg_rt');
    await coll.insertOne({ _id: 1, s: 'text' });
    const err = await errorOf(() => coll.aggregate([{ $project: { x: { $add: ['$s', 1] } } }]).toArray());
    expect(err.code).toBe(14);
    expect(err.errmsg).toBe("PlanExecutor error during aggregation :: caused by :: $add only supports numeric or date types, not string");
  });
});
