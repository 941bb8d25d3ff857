/**
 * Snapshot reads outside transactions through the official driver: a snapshot session keeps
 * reading the time of its first read while another client writes; getMore continues in the
 * snapshot; `atClusterTime` older than the history kept (239) or in the future (72); writes and
 * listIndexes refuse snapshot (72); a standalone refuses it (123).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long, Timestamp, type ClientSession } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
const sessions: ClientSession[] = [];

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', clock: 'manual', compat: 'mongodb' });
});
afterAll(async () => {
  for (const s of sessions) await s.endSession();
  await h.close();
});

function snapshotSession(): ClientSession {
  const session = h.client.startSession({ snapshot: true });
  sessions.push(session);
  return session;
}

describe('a snapshot session', () => {
  it('reads the time of its first read while another client writes', async () => {
    const coll = h.db.collection('s_reader');
    await coll.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    const session = snapshotSession();
    expect(await coll.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    await coll.updateOne({ _id: 1 }, { $set: { x: 10 } });
    await coll.deleteOne({ _id: 2 });
    await coll.insertOne({ _id: 3, x: 3 });
    expect(await coll.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    expect(await coll.distinct('x', {}, { session })).toEqual([1, 2]);
    expect(await coll.aggregate([{ $group: { _id: null, n: { $sum: '$x' } } }], { session }).toArray()).toEqual([{ _id: null, n: 3 }]);
    expect(await coll.countDocuments({}, { session })).toBe(2);
    // Outside the session, the head.
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 10 },
      { _id: 3, x: 3 },
    ]);
  });

  it('answers atClusterTime in the cursor, and getMore keeps reading the snapshot', async () => {
    const coll = h.db.collection('s_getmore');
    await coll.insertMany([1, 2, 3, 4, 5].map((i) => ({ _id: i })));
    const first = await h.db.command({ find: 's_getmore', batchSize: 2, readConcern: { level: 'snapshot' } });
    expect(first.cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect(first.cursor.atClusterTime).toBeInstanceOf(Timestamp);
    await coll.deleteMany({ _id: { $gte: 3 } });
    await coll.insertOne({ _id: 6 });
    const more = await h.db.command({ getMore: Long.fromNumber(first.cursor.id), collection: 's_getmore' });
    expect(more.cursor.nextBatch).toEqual([{ _id: 3 }, { _id: 4 }, { _id: 5 }]);
    expect(more.cursor.id).toBe(0);
    expect(more.cursor.atClusterTime).toEqual(first.cursor.atClusterTime);
    const distinct = await h.db.command({ distinct: 's_getmore', key: '_id', readConcern: { level: 'snapshot', atClusterTime: first.cursor.atClusterTime } });
    expect(distinct.values).toEqual([1, 2, 3, 4, 5]);
    expect(distinct.atClusterTime).toEqual(first.cursor.atClusterTime);
  });

  it("takes the read concern a snapshot session's driver sends on getMore too", async () => {
    const coll = h.db.collection('s_session_getmore');
    await coll.insertMany([1, 2, 3, 4, 5].map((i) => ({ _id: i })));
    const session = snapshotSession();
    const cursor = coll.find({}, { session, batchSize: 2 }).sort({ _id: 1 });
    expect(await cursor.next()).toEqual({ _id: 1 });
    await coll.deleteMany({ _id: { $gte: 3 } });
    expect(await cursor.toArray()).toEqual([{ _id: 2 }, { _id: 3 }, { _id: 4 }, { _id: 5 }]);
  });
});

describe('atClusterTime out of range', () => {
  it('a time older than the history kept is 239 SnapshotTooOld', async () => {
    const coll = h.db.collection('s_old');
    await coll.insertOne({ _id: 1 });
    const read = await h.db.command({ find: 's_old', readConcern: { level: 'snapshot' } });
    const at = read.cursor.atClusterTime as Timestamp;
    await h.client.db('admin').command({ mayflyAdvanceClock: 301 });
    await coll.insertOne({ _id: 2 });
    await h.client.db('admin').command({ mayflyAdvanceClock: 1 });
    await coll.insertOne({ _id: 3 });
    const err = await errorOf(() => h.db.command({ find: 's_old', readConcern: { level: 'snapshot', atClusterTime: at } }));
    expect(err.code).toBe(239);
    expect(err.codeName).toBe('SnapshotTooOld');
    expect(err.errmsg).toBe(`Read timestamp Timestamp(${at.t}, ${at.i}) is older than the oldest available timestamp.`);
  });

  it('a time in the future is 72 InvalidOptions', async () => {
    const now = (await h.db.command({ find: 's_old', readConcern: { level: 'snapshot' } })).cursor.atClusterTime as Timestamp;
    const future = new Timestamp({ t: now.t + 1000, i: 1 });
    const err = await errorOf(() => h.db.command({ find: 's_old', readConcern: { level: 'snapshot', atClusterTime: future } }));
    expect(err.code).toBe(72);
    expect(err.errmsg).toMatch(
      new RegExp(`^readConcern atClusterTime value must not be greater than the current clusterTime\\. Requested clusterTime: Timestamp\\(${future.t}, 1\\); current clusterTime: Timestamp\\(\\d+, \\d+\\)$`),
    );
  });
});

describe('commands that refuse snapshot', () => {
  it('writes, findAndModify, count and listIndexes answer 72', async () => {
    await h.db.collection('s_refuse').insertOne({ _id: 1 });
    const rc = { level: 'snapshot' };
    for (const cmd of [
      { insert: 's_refuse', documents: [{ _id: 2 }], readConcern: rc },
      { update: 's_refuse', updates: [{ q: {}, u: { $set: { a: 1 } } }], readConcern: rc },
      { delete: 's_refuse', deletes: [{ q: {}, limit: 1 }], readConcern: rc },
      { findAndModify: 's_refuse', query: {}, update: { $set: { a: 1 } }, readConcern: rc },
      { listIndexes: 's_refuse', readConcern: rc },
      { count: 's_refuse', readConcern: rc },
    ]) {
      const err = await errorOf(() => h.db.command(cmd));
      expect(err.code, JSON.stringify(cmd)).toBe(72);
    }
    expect(await h.db.collection('s_refuse').find({}).toArray()).toEqual([{ _id: 1 }]);
  });

  it('a standalone refuses snapshot with 123 NotAReplicaSet', async () => {
    const standalone = await startHarness({ compat: 'mongodb' });
    try {
      const err = await errorOf(() => standalone.db.command({ find: 'c', readConcern: { level: 'snapshot' } }));
      expect(err.code).toBe(123);
      expect(err.errmsg).toBe('node needs to be a replica set member to use readConcern: snapshot');
    } finally {
      await standalone.close();
    }
  });
});
