/**
 * `local.oplog.rs` read as mongod's oplog is read: find with sort ($natural ±1), skip, limit,
 * projection, batchSize and a `ts` filter; the tailable rules' errors; a tailable awaitData
 * cursor that sees an insert, an update, a delete and a transaction's applyOps, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Timestamp, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

const local = () => h.client.db('local');

it('find honours sort $natural, skip, limit, projection and batchSize', async () => {
  const coll = h.db.collection('opf');
  const ns = `${h.db.databaseName}.opf`;
  await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 4 }]);
  const filter = { ns, op: 'i' };
  const forward = await local().command({ find: 'oplog.rs', filter, projection: { _id: 0, o: 1 } });
  expect(forward.cursor.firstBatch).toEqual([{ o: { _id: 1 } }, { o: { _id: 2 } }, { o: { _id: 3 } }, { o: { _id: 4 } }]);
  expect(forward.cursor.id.toString()).toBe('0');
  const backward = await local().command({ find: 'oplog.rs', filter, sort: { $natural: -1 }, skip: 1, limit: 2, projection: { 'o._id': 1, _id: 0 } });
  expect(backward.cursor.firstBatch).toEqual([{ o: { _id: 3 } }, { o: { _id: 2 } }]);
  const byField = await local().command({ find: 'oplog.rs', filter, sort: { 'o._id': -1 }, limit: 1, projection: { op: 1, _id: 0 } });
  expect(byField.cursor.firstBatch).toEqual([{ op: 'i' }]);
  const session = h.client.startSession();
  const batched = await local().command({ find: 'oplog.rs', filter, batchSize: 3, projection: { _id: 0, 'o._id': 1 } }, { promoteLongs: false, session });
  expect(batched.cursor.firstBatch).toEqual([{ o: { _id: 1 } }, { o: { _id: 2 } }, { o: { _id: 3 } }]);
  const rest = await local().command({ getMore: batched.cursor.id, collection: 'oplog.rs' }, { session });
  await session.endSession();
  expect(rest.cursor.nextBatch).toEqual([{ o: { _id: 4 } }]);
  expect(rest.cursor.id.toString()).toBe('0');
  // The driver's find, as a tailer would write it: entries after a time.
  const [first] = await local().collection('oplog.rs').find(filter).limit(1).toArray();
  const after = await local().collection('oplog.rs').find({ ts: { $gt: first!.ts as Timestamp }, ns }).project({ _id: 0, 'o._id': 1 }).toArray();
  expect(after).toEqual([{ o: { _id: 2 } }, { o: { _id: 3 } }, { o: { _id: 4 } }]);
  const since = await local().collection('oplog.rs').countDocuments({ ts: { $gte: first!.ts as Timestamp }, ns });
  expect(since).toBe(4);
});

it('aggregate reads the oplog as a collection', async () => {
  const coll = h.db.collection('opagg');
  const ns = `${h.db.databaseName}.opagg`;
  await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
  await coll.updateOne({ _id: 1 }, { $set: { x: 1 } });
  await coll.deleteOne({ _id: 2 });
  const byOp = await local()
    .collection('oplog.rs')
    .aggregate([{ $match: { ns } }, { $group: { _id: '$op', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
    .toArray();
  expect(byOp).toEqual([
    { _id: 'd', n: 1 },
    { _id: 'i', n: 2 },
    { _id: 'u', n: 1 },
  ]);
  const session = h.client.startSession();
  const batched = await local().command({ aggregate: 'oplog.rs', pipeline: [{ $match: { ns } }, { $project: { _id: 0, op: 1 } }], cursor: { batchSize: 1 } }, { promoteLongs: false, session });
  expect(batched.cursor.firstBatch).toEqual([{ op: 'i' }]);
  const rest = await local().command({ getMore: batched.cursor.id, collection: 'oplog.rs' }, { session });
  await session.endSession();
  expect(rest.cursor.nextBatch).toEqual([{ op: 'i' }, { op: 'u' }, { op: 'd' }]);
});

it('a tailable oplog cursor follows the rules of mongod\'s tailable finds', async () => {
  expect(await errorOf(() => local().command({ find: 'oplog.rs', awaitData: true }))).toMatchObject({
    code: 9,
    codeName: 'FailedToParse',
    errmsg: "Cannot set 'awaitData' without also setting 'tailable'",
  });
  expect(await errorOf(() => local().command({ find: 'oplog.rs', tailable: true, sort: { $natural: -1 } }))).toMatchObject({
    code: 2,
    codeName: 'BadValue',
    errmsg: 'cannot use tailable option with a sort other than {$natural: 1}',
  });
  expect(await errorOf(() => local().command({ find: 'oplog.rs', tailable: true, singleBatch: true }))).toMatchObject({
    code: 2,
    codeName: 'BadValue',
    errmsg: "cannot use tailable option with the 'singleBatch' option",
  });
});

it('a tailer sees an insert, an update, a delete and a transaction in order, in mongod\'s entry shape', async () => {
  const coll = h.db.collection('tailer');
  const ns = `${h.db.databaseName}.tailer`;
  await coll.insertOne({ _id: 0 });
  const [last] = await local().collection('oplog.rs').find({}).sort({ $natural: -1 }).limit(1).toArray();
  // The cursor's getMores come from the session that opened it (mongod refuses another: 50738).
  const tailSession = h.client.startSession();
  const tail = await local().command({ find: 'oplog.rs', filter: { ts: { $gt: last!.ts } }, tailable: true, awaitData: true, projection: { _id: 0, op: 1, ns: 1, o: 1, o2: 1 } }, { promoteLongs: false, session: tailSession });
  expect(tail.cursor.firstBatch).toEqual([]);
  const seen: Document[] = [];
  const more = async (): Promise<void> => {
    const reply = await local().command({ getMore: tail.cursor.id, collection: 'oplog.rs', maxTimeMS: 60_000 }, { session: tailSession });
    seen.push(...(reply.cursor.nextBatch as Document[]));
  };
  let waiting = more();
  await coll.insertOne({ _id: 1, a: 1 });
  await waiting;
  waiting = more();
  await coll.updateOne({ _id: 1 }, { $set: { a: 2, b: [1] } });
  await waiting;
  waiting = more();
  await coll.deleteOne({ _id: 1 });
  await waiting;
  const session = h.client.startSession();
  waiting = more();
  await session.withTransaction(async () => {
    await coll.insertOne({ _id: 2 }, { session });
    await coll.insertOne({ _id: 3 }, { session });
  });
  await waiting;
  await session.endSession();
  expect(seen).toEqual([
    { op: 'i', ns, o: { _id: 1, a: 1 }, o2: { _id: 1 } },
    { op: 'u', ns, o: { $v: 2, diff: { u: { a: 2 }, i: { b: [1] } } }, o2: { _id: 1 } },
    { op: 'd', ns, o: { _id: 1 } },
    {
      op: 'c',
      ns: 'admin.$cmd',
      o: {
        applyOps: [
          { op: 'i', ns, ui: expect.anything(), o: { _id: 2 }, o2: { _id: 2 } },
          { op: 'i', ns, ui: expect.anything(), o: { _id: 3 }, o2: { _id: 3 } },
        ],
      },
    },
  ]);
  await local().command({ killCursors: 'oplog.rs', cursors: [tail.cursor.id] });
});
