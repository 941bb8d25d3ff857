/**
 * Documents are stored as their BSON bytes and spliced into replies; filters decode only the
 * top-level fields they read; the `_id_` index keeps no entries until a query needs its order.
 * Checked through the official driver: the bytes a client gets back, filters over every kind of
 * field, and `_id` ranges before and after the index is built and then kept through writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, BSON, BSONRegExp, Code, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('stored documents through the driver', () => {
  it('come back byte for byte as inserted (_id first), with every BSON type', async () => {
    const coll = h.db.collection('types');
    const doc = {
      _id: new ObjectId('65a1b2c3d4e5f60718293a4b'),
      dbl: new Double(1),
      frac: 2.5,
      int: new Int32(7),
      long: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.10'),
      str: 'héllo wörld',
      bin: new Binary(Buffer.from([1, 2, 3]), 0x80),
      date: new Date(1700000000000),
      ts: new Timestamp({ t: 5, i: 6 }),
      re: new BSONRegExp('^a', 'mi'),
      code: new Code('f()', { x: 1 }),
      min: new MinKey(),
      max: new MaxKey(),
      nil: null,
      arr: [1, 'two', { three: 3 }, [4]],
      sub: { a: { b: [{ c: 1 }] } },
    };
    await coll.insertOne(doc);
    const raw = (await coll.findOne({ _id: doc._id }, { raw: true })) as unknown as Buffer;
    expect(Buffer.from(raw).toString('hex')).toBe(Buffer.from(BSON.serialize(doc)).toString('hex'));
    // Read through filters on single fields of several types (each decoded alone).
    expect(await coll.countDocuments({ str: 'héllo wörld' })).toBe(1);
    expect(await coll.countDocuments({ dbl: 1, long: { $gt: 9007199254740992 } })).toBe(1);
    expect(await coll.countDocuments({ 'sub.a.b.c': 1 })).toBe(1);
    expect(await coll.countDocuments({ arr: 'two' })).toBe(1);
    expect(await coll.countDocuments({ $or: [{ nope: 1 }, { 'arr.three': 3 }] })).toBe(1);
    expect(await coll.countDocuments({ $expr: { $eq: ['$int', 7] } })).toBe(1);
    expect(await coll.countDocuments({ missing: { $exists: false }, frac: { $lt: 3 } })).toBe(1);
    expect(await coll.countDocuments({ str: 'hello world' })).toBe(0);
  });

  it('keep _id first when the driver appends it, as mongod does', async () => {
    const coll = h.db.collection('appended');
    const docs = [{ a: 1, s: 'x' }, { b: 2 }];
    await coll.insertMany(docs); // the driver adds each _id as the last field
    expect(Object.keys(docs[0]!)).toEqual(['a', 's', '_id']);
    const raw = (await coll.find({}, { raw: true }).sort({ a: -1 }).toArray()) as unknown as Buffer[];
    expect(raw.map((b) => Buffer.from(b).subarray(4, 9).toString('hex'))).toEqual(['075f696400', '075f696400']);
    expect(await coll.find({}, { projection: { _id: 0 } }).sort({ a: -1 }).toArray()).toEqual([{ a: 1, s: 'x' }, { b: 2 }]);
    const first = await coll.findOne({ a: 1 });
    expect(Object.keys(first!)).toEqual(['_id', 'a', 's']);
  });

  it('project inclusions from the fields they name, other projections from whole documents', async () => {
    const coll = h.db.collection('proj');
    await coll.insertOne({ z: 0, _id: 1, a: { b: 1, c: [1, 2] }, s: 'x', arr: [{ k: 1 }, { k: 2 }] });
    const one = async (projection: object): Promise<unknown> => coll.findOne({ _id: 1 }, { projection });
    expect(await one({ s: 1 })).toEqual({ _id: 1, s: 'x' });
    expect(await one({ 'a.c': 1, _id: 0 })).toEqual({ a: { c: [1, 2] } });
    expect(await one({ missing: 1, z: true })).toEqual({ _id: 1, z: 0 });
    expect(await one({ s: 0, a: 0 })).toEqual({ _id: 1, z: 0, arr: [{ k: 1 }, { k: 2 }] });
    expect(await one({ arr: { $elemMatch: { k: 2 } } })).toEqual({ _id: 1, arr: [{ k: 2 }] });
    expect(await one({ total: { $size: '$arr' } })).toEqual({ _id: 1, total: 2 });
    expect(await coll.distinct('a.c')).toEqual([1, 2]);
    expect(await coll.distinct('arr.k', { s: 'x' })).toEqual([1, 2]);
  });

  it('answer updates and projections from the stored bytes', async () => {
    const coll = h.db.collection('upd');
    await coll.insertMany([
      { _id: 1, a: 1, s: 'x' },
      { _id: 2, a: 2, s: 'y' },
    ]);
    await coll.updateOne({ _id: 1 }, { $inc: { a: 10 }, $set: { t: 'new' } });
    expect(await coll.find({}, { projection: { s: 0 } }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 11, t: 'new' },
      { _id: 2, a: 2 },
    ]);
    await coll.replaceOne({ _id: 2 }, { b: 'replaced' });
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, b: 'replaced' });
    const err = await coll.replaceOne({ _id: 2 }, { _id: 3, b: 1 }).catch((e: { code: number }) => e);
    expect((err as { code: number }).code).toBe(66);
  });
});

describe('an aggregation whose first stage is $match', () => {
  it('gives what the whole documents give, with the fields it reads decoded first', async () => {
    const coll = h.db.collection('agg');
    await coll.insertMany(
      Array.from({ length: 60 }, (_, i) => ({ _id: i, n: i % 5, s: i % 2 === 0 ? 'even' : 'odd', sub: { v: i % 3 }, tags: i % 4 === 0 ? ['x', 'y'] : ['z'] })),
    );
    const group = { $group: { _id: '$n', c: { $sum: 1 }, ids: { $push: '$_id' } } };
    const run = async (match: object): Promise<unknown[]> => coll.aggregate([{ $match: match }, group, { $sort: { _id: 1 } }]).toArray();
    expect(await run({ n: 2, s: 'even' })).toEqual([{ _id: 2, c: 6, ids: [2, 12, 22, 32, 42, 52] }]);
    expect(await run({ 'sub.v': 0, tags: 'x' })).toEqual([
      { _id: 0, c: 1, ids: [0] },
      { _id: 1, c: 1, ids: [36] },
      { _id: 2, c: 1, ids: [12] },
      { _id: 3, c: 1, ids: [48] },
      { _id: 4, c: 1, ids: [24] },
    ]);
    expect(await run({ $or: [{ n: 4 }, { _id: { $lt: 2 } }], s: 'odd' })).toEqual([
      { _id: 1, c: 1, ids: [1] },
      { _id: 4, c: 6, ids: [9, 19, 29, 39, 49, 59] },
    ]);
    // $expr reads the whole document.
    expect(await run({ $expr: { $eq: ['$n', '$sub.v'] } })).toEqual([
      { _id: 0, c: 4, ids: [0, 15, 30, 45] },
      { _id: 1, c: 4, ids: [1, 16, 31, 46] },
      { _id: 2, c: 4, ids: [2, 17, 32, 47] },
    ]);
    expect(await coll.countDocuments({ n: { $gte: 3 }, s: 'even' })).toBe(12);
    expect(await coll.countDocuments({})).toBe(60);
  });

  it('reads only the fields a pipeline needs and gives what the whole documents give', async () => {
    const coll = h.db.collection('agg');
    // Fields the pipelines below do not name are absent from what they read; the results show none missing.
    expect(await coll.aggregate([{ $unwind: '$tags' }, { $group: { _id: '$tags', c: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray()).toEqual([
      { _id: 'x', c: 15 },
      { _id: 'y', c: 15 },
      { _id: 'z', c: 45 },
    ]);
    expect(await coll.aggregate([{ $sort: { _id: -1 } }, { $group: { _id: '$sub.v', last: { $first: '$_id' }, first: { $last: '$s' } } }, { $sort: { _id: 1 } }]).toArray()).toEqual([
      { _id: 0, last: 57, first: 'even' },
      { _id: 1, last: 58, first: 'odd' },
      { _id: 2, last: 59, first: 'even' },
    ]);
    expect(await coll.aggregate([{ $match: { _id: { $lt: 2 } } }, { $project: { n: 1, sub: { v: 1 }, label: { $concat: ['$s', '-', '$s'] } } }]).toArray()).toEqual([
      { _id: 0, n: 0, sub: { v: 0 }, label: 'even-even' },
      { _id: 1, n: 1, sub: { v: 1 }, label: 'odd-odd' },
    ]);
    // Whole documents: $$ROOT, and a pipeline that returns them.
    expect(await coll.aggregate([{ $match: { _id: 5 } }, { $group: { _id: null, docs: { $push: '$$ROOT' } } }]).toArray()).toEqual([
      { _id: null, docs: [{ _id: 5, n: 0, s: 'odd', sub: { v: 2 }, tags: ['z'] }] },
    ]);
    expect(await coll.aggregate([{ $match: { _id: 8 } }, { $set: { m: { $multiply: ['$n', 2] } } }]).toArray()).toEqual([
      { _id: 8, n: 3, s: 'even', sub: { v: 2 }, tags: ['x', 'y'], m: 6 },
    ]);
  });
});

describe('the _id_ index, built on the first query that needs its order', () => {
  it('answers _id ranges and sorts before and after later writes', async () => {
    const coll = h.db.collection('ids');
    const ids = Array.from({ length: 300 }, (_, i) => (i * 7919) % 300); // every id 0..299, shuffled
    await coll.insertMany(ids.map((_id) => ({ _id, v: _id * 2 })));
    const range = async (): Promise<unknown[]> => (await coll.find({ _id: { $gte: 100, $lt: 105 } }).toArray()).map((d) => d._id);
    expect(await range()).toEqual([100, 101, 102, 103, 104]);
    const plan = await coll.find({ _id: { $gte: 100, $lt: 105 } }).explain('executionStats');
    expect(plan.queryPlanner.winningPlan.inputStage.stage).toBe('IXSCAN');
    expect(plan.queryPlanner.winningPlan.inputStage.indexName).toBe('_id_');
    expect(plan.executionStats.totalKeysExamined).toBe(5);
    // Writes after the build keep the entries.
    await coll.deleteOne({ _id: 101 });
    await coll.insertOne({ _id: 102.5, v: 0 });
    await coll.updateOne({ _id: 103 }, { $set: { v: -1 } });
    expect(await range()).toEqual([100, 102, 102.5, 103, 104]);
    expect((await coll.find().sort({ _id: -1 }).limit(3).toArray()).map((d) => d._id)).toEqual([299, 298, 297]);
    expect(await coll.findOne({ _id: 103 })).toEqual({ _id: 103, v: -1 });
  });

  it('refuses a duplicate _id whether or not its entries are built', async () => {
    const coll = h.db.collection('dups');
    await coll.insertOne({ _id: 'a' });
    const before = await coll.insertOne({ _id: 'a' }).catch((e: { code: number }) => e.code);
    expect(before).toBe(11000);
    expect(await coll.find({ _id: { $gt: '' } }).toArray()).toEqual([{ _id: 'a' }]);
    const after = await coll.insertOne({ _id: 'a' }).catch((e: { code: number }) => e.code);
    expect(after).toBe(11000);
    await coll.insertOne({ _id: 'b' });
    expect((await coll.find({ _id: { $gt: '' } }).toArray()).map((d) => d._id)).toEqual(['a', 'b']);
  });
});

describe('an update of named top-level fields, stored as a patch of the bytes', () => {
  it('changes those fields in place, appends new ones, keeps every other byte and the indexes right', async () => {
    const coll = h.db.collection('patched');
    await coll.createIndex({ n: 1 });
    const big = 'x'.repeat(5000);
    await coll.insertOne({ _id: 1, a: 1, big, s: 'héllo', n: new Int32(5), sub: { k: [1, 2] } });
    const reply = await coll.updateOne({ _id: 1 }, { $inc: { n: 1 }, $set: { t: 'new', 'sub.k.1': 9 }, $unset: { a: '' } });
    expect([reply.matchedCount, reply.modifiedCount]).toEqual([1, 1]);
    const raw = (await coll.findOne({ _id: 1 }, { raw: true })) as unknown as Buffer;
    const expected = { _id: 1, big, s: 'héllo', n: new Int32(6), sub: { k: [1, 9] }, t: 'new' };
    expect(Buffer.from(raw).toString('hex')).toBe(Buffer.from(BSON.serialize(expected)).toString('hex'));
    // The index on n moved its entry.
    expect(await coll.find({ n: 6 }).hint({ n: 1 }).project({ _id: 1 }).toArray()).toEqual([{ _id: 1 }]);
    expect(await coll.countDocuments({ n: 5 }, { hint: { n: 1 } })).toBe(0);
    // A no-op is matched and not modified.
    const same = await coll.updateOne({ _id: 1 }, { $set: { s: 'héllo' } });
    expect([same.matchedCount, same.modifiedCount]).toEqual([1, 0]);
  });

  it('fails as the whole document does: the message names its _id', async () => {
    const coll = h.db.collection('patched_err');
    await coll.insertOne({ _id: 'k1', s: 'text', n: 1 });
    const err = await coll.updateOne({ _id: 'k1' }, { $inc: { s: 1 } }).catch((e: { code: number; message: string }) => e);
    expect([(err as { code: number }).code, (err as { message: string }).message]).toEqual([
      14,
      "Plan executor error during update :: caused by :: Cannot apply $inc to a value of non-numeric type. {_id: \"k1\"} has the field 's' of non-numeric type string",
    ]);
    expect(await coll.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', s: 'text', n: 1 });
  });
});
