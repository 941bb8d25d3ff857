/**
 * Cosmos policy: an expired document is gone for every read and write at its expiry instant,
 * before any reaper pass (TTL.md): find, getMore of an open cursor, count, countDocuments,
 * estimatedDocumentCount, distinct, aggregate, findAndModify, update and delete matching, upserts
 * and unique keys (the new document takes the expired one's place). Then the reaper deletes it
 * physically and every TTL deletion is counted in serverStatus.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Long, MongoServerError, type Collection } from 'mongodb';
import { startHarness, type Harness, type TestDocument } from './harness.js';
import { advance, ids, runPass, ttlMetrics } from './ttl_helpers.js';

describe('expired documents are invisible to every read and write path', () => {
  let h: Harness;
  let c: Collection<TestDocument>;
  beforeEach(async () => {
    h = await startHarness({ compat: 'cosmos', cosmos: { rules: { indexKinds: false } }, clock: 'manual' });
    c = h.db.collection('v');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
    await c.createIndex({ u: 1 }, { unique: true, sparse: true });
    // Ten documents that expire at t = 60 s and one that never does.
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, g: i % 2, u: i })));
    await c.insertOne({ _id: 'keep', g: 'k', u: 100, ttl: -1 });
  });
  afterEach(async () => {
    await h.close();
  });

  test('find, and getMore of find and aggregate cursors opened before the expiry', async () => {
    const cursor = c.find({}, { batchSize: 2 });
    const aggCursor = c.aggregate([{ $match: {} }, { $project: { u: 1 } }], { batchSize: 2 });
    expect(await cursor.next()).toEqual({ _id: 0, g: 0, u: 0 });
    expect(await cursor.next()).toEqual({ _id: 1, g: 1, u: 1 });
    expect(await aggCursor.next()).toEqual({ _id: 0, u: 0 });
    expect(await aggCursor.next()).toEqual({ _id: 1, u: 1 });
    await advance(h.client, 60);
    // The first batches are already on the client; the getMores see only what is still alive.
    expect(await cursor.toArray()).toEqual([{ _id: 'keep', g: 'k', u: 100, ttl: -1 }]);
    expect(await aggCursor.toArray()).toEqual([{ _id: 'keep', u: 100 }]);
    expect(await c.find({ _id: 3 }).toArray()).toEqual([]);
    expect(await c.find({ u: 3 }).toArray()).toEqual([]);
    expect(await c.find({ g: 0 }).sort({ u: -1 }).toArray()).toEqual([]);
    expect(await c.findOne({ _id: 'keep' })).toEqual({ _id: 'keep', g: 'k', u: 100, ttl: -1 });
  });

  test('the expiry instant is exact to the millisecond', async () => {
    await advance(h.client, 59.999);
    expect(await c.countDocuments()).toBe(11);
    expect(await c.findOne({ _id: 9 })).toEqual({ _id: 9, g: 1, u: 9 });
    await advance(h.client, 0.001);
    expect(await c.countDocuments()).toBe(1);
    expect(await c.findOne({ _id: 9 })).toBeNull();
  });

  test('count, countDocuments, estimatedDocumentCount, distinct and aggregate', async () => {
    await advance(h.client, 60);
    expect(await c.countDocuments()).toBe(1);
    expect(await c.countDocuments({ g: 0 })).toBe(0);
    expect(await c.estimatedDocumentCount()).toBe(1);
    expect((await h.db.command({ count: 'v' })).n).toBe(1);
    expect(await c.distinct('g')).toEqual(['k']);
    expect(await c.distinct('u', { u: { $lt: 50 } })).toEqual([]);
    expect(await c.aggregate([{ $group: { _id: null, n: { $sum: 1 } } }]).toArray()).toEqual([{ _id: null, n: 1 }]);
    expect(await c.aggregate([{ $match: { g: { $in: [0, 1] } } }]).toArray()).toEqual([]);
  });

  test('findAndModify, update and delete do not match expired documents', async () => {
    await advance(h.client, 60);
    expect(await c.findOneAndUpdate({ _id: 3 }, { $set: { x: 1 } })).toBeNull();
    expect(await c.findOneAndDelete({ _id: 4 })).toBeNull();
    expect(await c.findOneAndReplace({ g: 0 }, { y: 1 })).toBeNull();
    const updated = await c.updateMany({}, { $set: { seen: true } });
    expect(updated.matchedCount).toBe(1);
    expect(updated.modifiedCount).toBe(1);
    const deleted = await c.deleteMany({ g: { $in: [0, 1] } });
    expect(deleted.deletedCount).toBe(0);
    expect(await c.find().toArray()).toEqual([{ _id: 'keep', g: 'k', u: 100, ttl: -1, seen: true }]);
  });

  test('an expired document blocks neither an insert with its _id, an upsert, nor a unique key', async () => {
    await advance(h.client, 60);
    await c.insertOne({ _id: 0, fresh: true });
    const upsert = await c.updateOne({ _id: 1 }, { $set: { fresh: true } }, { upsert: true });
    expect(upsert.upsertedId).toBe(1);
    expect(upsert.matchedCount).toBe(0);
    const fam = await c.findOneAndUpdate({ _id: 2 }, { $set: { fresh: true } }, { upsert: true, returnDocument: 'after' });
    expect(fam).toEqual({ _id: 2, fresh: true });
    await c.insertOne({ _id: 'new', u: 5 }); // u: 5 was held by an expired document
    const dup = await c.insertOne({ _id: 'dup', u: 100 }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(MongoServerError);
    expect((dup as MongoServerError).code).toBe(11000);
    expect(await c.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 0, fresh: true },
      { _id: 1, fresh: true },
      { _id: 2, fresh: true },
      { _id: 'keep', g: 'k', u: 100, ttl: -1 },
      { _id: 'new', u: 5 },
    ]);
    // The four expired documents replaced above were TTL deletions; the reaper removes the other six.
    expect((await ttlMetrics(h.client)).deletedDocuments).toEqual(Long.fromNumber(4));
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(6), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(10),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(1),
      subPasses: Long.fromNumber(1),
    });
  });

  test('the reaper then deletes them and counts them', async () => {
    await advance(h.client, 60);
    const before = await ttlMetrics(h.client);
    expect(before.deletedDocuments).toEqual(Long.fromNumber(0));
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(10), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'v')).toEqual(['keep']);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(10),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(2),
      subPasses: Long.fromNumber(2),
    });
  });
});
