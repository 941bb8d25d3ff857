/**
 * A snapshot reader pinned at an old time (storage/write/snapshots.ts: per-record positions,
 * newer records hidden by the visibility check) through the official driver: after thousands of
 * inserts, updates and deletes by another client (re-inserted `_id`s and unique keys taken over
 * included) it sees exactly the old documents through an index, a collection scan, a sort, a
 * count and distinct, while the head stays what the writer wrote; a transaction opened meanwhile
 * still reads and writes the head; once the reader ends and the window has passed, its time is
 * gone (239).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document, Timestamp } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', clock: 'manual', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

const byId = (a: Document, b: Document): number => Number(a._id) - Number(b._id);

describe('a snapshot reader pinned at an old time', () => {
  it('sees the old documents after thousands of writes, through every read path', async () => {
    const coll = h.db.collection('pinned');
    await coll.createIndex({ k: 1 });
    await coll.createIndex({ u: 1 }, { unique: true });
    const old: Document[] = Array.from({ length: 200 }, (_, i) => ({ _id: i, k: i % 10, u: i, v: i }));
    await coll.insertMany(old);
    const head = new Map<number, Document>(old.map((d) => [d._id as number, { ...d }]));

    const session = h.client.startSession({ snapshot: true });
    try {
      expect((await coll.find({}, { session }).sort({ _id: 1 }).batchSize(1000).toArray()).length).toBe(200);
      // Another client writes: new documents, updates (a key moved, a unique key given up and
      // taken by a new document), deletes, and deleted _ids inserted again.
      for (let i = 0; i < 1500; i++) {
        const doc = { _id: 1000 + i, k: i % 10, u: 1000 + i, v: -i };
        await coll.insertOne(doc);
        head.set(doc._id, doc);
      }
      for (let i = 0; i < 200; i += 2) {
        await coll.updateOne({ _id: i }, { $inc: { v: 1000 }, $set: { k: 99, u: 5000 + i } });
        head.set(i, { ...head.get(i)!, k: 99, u: 5000 + i, v: i + 1000 });
      }
      for (let i = 0; i < 200; i += 2) {
        // The unique key u: i the update gave up, taken by a new document.
        const doc = { _id: 3000 + i, k: 3, u: i, v: 0 };
        await coll.insertOne(doc);
        head.set(doc._id, doc);
      }
      for (let i = 1; i < 200; i += 4) {
        await coll.deleteOne({ _id: i });
        head.delete(i);
        // The same _id and unique key, a new document.
        const doc = { _id: i, k: 7, u: i, v: 7 };
        await coll.insertOne(doc);
        head.set(i, doc);
      }
      for (let i = 1000; i < 1500; i++) {
        await coll.deleteOne({ _id: i });
        head.delete(i);
      }

      const sorted = [...old].sort(byId);
      expect(await coll.find({}, { session }).sort({ _id: 1 }).batchSize(1000).toArray()).toEqual(sorted);
      expect(await coll.find({}, { session }).hint({ $natural: 1 }).batchSize(1000).toArray().then((d) => d.sort(byId))).toEqual(sorted);
      expect(await coll.find({ k: 3 }, { session }).hint({ k: 1 }).sort({ _id: 1 }).toArray()).toEqual(old.filter((d) => d.k === 3));
      expect(await coll.find({ u: { $lt: 10 } }, { session }).hint({ u: 1 }).toArray()).toEqual(old.slice(0, 10));
      expect(await coll.find({ _id: 5 }, { session }).toArray()).toEqual([old[5]]);
      expect(await coll.find({}, { session }).sort({ v: -1 }).limit(3).toArray()).toEqual([old[199], old[198], old[197]]);
      expect(await coll.countDocuments({}, { session })).toBe(200);
      expect(await coll.countDocuments({ k: 99 }, { session })).toBe(0);
      expect((await coll.distinct('k', {}, { session })).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

      // Meanwhile the head is what the writer wrote, and a transaction reads and writes it.
      const headDocs = [...head.values()].sort(byId);
      expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual(headDocs);
      expect(await coll.find({ k: 3 }).hint({ k: 1 }).sort({ _id: 1 }).toArray()).toEqual(headDocs.filter((d) => d.k === 3));
      const txn = h.client.startSession();
      try {
        await txn.withTransaction(async () => {
          expect(await coll.countDocuments({}, { session: txn })).toBe(headDocs.length);
          await coll.insertOne({ _id: 9000, k: 1, u: 9000, v: 1 }, { session: txn });
          await coll.updateOne({ _id: 2 }, { $set: { v: 2 } }, { session: txn });
        });
      } finally {
        await txn.endSession();
      }
      // A document inserted after the reader's time with an _id the reader never saw: still hidden.
      expect(await coll.find({ _id: { $in: [2, 9000] } }, { session }).sort({ _id: 1 }).toArray()).toEqual([old[2]]);
      expect(await coll.find({ _id: { $in: [2, 9000] } }).sort({ _id: 1 }).toArray()).toEqual([
        { ...head.get(2)!, v: 2 },
        { _id: 9000, k: 1, u: 9000, v: 1 },
      ]);
      // A write that needs a key only a newer document holds (taken since the view) is 11000 at the head.
      const dup = await errorOf(() => coll.insertOne({ _id: 9001, u: 0 }));
      expect(dup.code).toBe(11000);
    } finally {
      await session.endSession();
    }
  });

  it('a transaction whose snapshot predates an insert does not see it and conflicts on its _id (112)', async () => {
    const coll = h.db.collection('pinned_txn');
    await coll.insertOne({ _id: 1, x: 1 });
    const txn = h.client.startSession();
    try {
      txn.startTransaction();
      expect(await coll.find({}, { session: txn }).toArray()).toEqual([{ _id: 1, x: 1 }]);
      await coll.insertOne({ _id: 2, x: 2 });
      expect(await coll.find({}, { session: txn }).sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, x: 1 }]);
      const err = await errorOf(() => coll.insertOne({ _id: 2, x: 3 }, { session: txn }));
      expect(err.code).toBe(112);
      expect(err.codeName).toBe('WriteConflict');
      expect(err.errorLabels).toEqual(['TransientTransactionError']);
      await txn.abortTransaction().catch(() => undefined);
    } finally {
      await txn.endSession();
    }
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
  });

  it('its time is gone once it ended and the window has passed (239)', async () => {
    const coll = h.db.collection('pinned_end');
    await coll.insertOne({ _id: 1 });
    const read = await h.db.command({ find: 'pinned_end', readConcern: { level: 'snapshot' } });
    const at = read.cursor.atClusterTime as Timestamp;
    for (let i = 2; i < 100; i++) await coll.insertOne({ _id: i });
    expect((await h.db.command({ find: 'pinned_end', readConcern: { level: 'snapshot', atClusterTime: at } })).cursor.firstBatch).toEqual([{ _id: 1 }]);
    const admin = h.client.db('admin');
    await admin.command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 0 });
    try {
      await coll.insertOne({ _id: 100 });
      const err = await errorOf(() => h.db.command({ find: 'pinned_end', readConcern: { level: 'snapshot', atClusterTime: at } }));
      expect(err.code).toBe(239);
      expect(err.codeName).toBe('SnapshotTooOld');
    } finally {
      await admin.command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 300 });
    }
  });
});
