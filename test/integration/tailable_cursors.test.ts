/**
 * Tailable cursors on capped collections, through the driver: the cursor stays open at the end,
 * a later getMore returns what was inserted since, in insertion order; awaitData waits for the
 * insert that wakes it; a position lost to capped eviction dies with 136; mongod's refusals.
 */
import { Long, MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

test('a tailable cursor stays open at the end and returns the documents inserted since, in order', async () => {
  await h.db.createCollection('events', { capped: true, size: 4096 });
  await h.db.collection('events').insertMany([{ _id: 1 }, { _id: 2 }]);
  const session = h.client.startSession();
  const first = await h.db.command({ find: 'events', tailable: true }, { session });
  expect(first.cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 2 }]);
  expect(Number(idOf(first))).not.toBe(0);
  const empty = await h.db.command({ getMore: idOf(first), collection: 'events' }, { session });
  expect(empty.cursor.nextBatch).toEqual([]);
  await h.db.collection('events').insertMany([{ _id: 3 }, { _id: 4 }]);
  const more = await h.db.command({ getMore: idOf(first), collection: 'events' }, { session });
  expect(more.cursor.nextBatch).toEqual([{ _id: 3 }, { _id: 4 }]);
  expect(idOf(more).equals(idOf(first))).toBe(true);
  await h.db.command({ killCursors: 'events', cursors: [idOf(first)] }, { session });
  await session.endSession();
});

test('tailable awaitData through the driver: next() is woken by another client\'s insert', async () => {
  await h.db.createCollection('feed', { capped: true, size: 4096 });
  await h.db.collection('feed').insertOne({ _id: 0 });
  const cursor = h.db.collection('feed').find({}, { tailable: true, awaitData: true, maxAwaitTimeMS: 60_000 });
  expect(await cursor.next()).toEqual({ _id: 0 });
  const waiting = cursor.next();
  const other = await startHarnessClient();
  await other.db(h.db.databaseName).collection<{ _id: number; from: string }>('feed').insertOne({ _id: 1, from: 'other' });
  expect(await waiting).toEqual({ _id: 1, from: 'other' });
  await cursor.close();
  await other.close();
});

test('a position overwritten by capped eviction answers 136 CappedPositionLost', async () => {
  await h.db.createCollection('small', { capped: true, size: 4096, max: 2 });
  await h.db.collection('small').insertMany([{ _id: 1 }, { _id: 2 }]);
  const session = h.client.startSession();
  const first = await h.db.command({ find: 'small', tailable: true, batchSize: 1 }, { session });
  expect(first.cursor.firstBatch).toEqual([{ _id: 1 }]);
  await h.db.collection('small').insertMany([{ _id: 3 }, { _id: 4 }]);
  const err = await errorOf(() => h.db.command({ getMore: idOf(first), collection: 'small' }, { session }));
  expect(err.code).toBe(136);
  expect(err.codeName).toBe('CappedPositionLost');
  await session.endSession();
});

test('mongod\'s refusals: a non-capped collection, awaitData without tailable, a sort, singleBatch', async () => {
  await h.db.collection('plain').insertOne({ _id: 1 });
  await h.db.createCollection('capped2', { capped: true, size: 4096 });
  expect(await errorOf(() => h.db.command({ find: 'plain', tailable: true }))).toMatchObject({ code: 2, codeName: 'BadValue' });
  expect(await errorOf(() => h.db.command({ find: 'capped2', awaitData: true }))).toMatchObject({ code: 9, codeName: 'FailedToParse' });
  expect(await errorOf(() => h.db.command({ find: 'capped2', tailable: true, sort: { $natural: -1 } }))).toMatchObject({ code: 2, codeName: 'BadValue' });
  expect(await errorOf(() => h.db.command({ find: 'capped2', tailable: true, singleBatch: true }))).toMatchObject({
    code: 2,
    errmsg: "cannot use tailable option with the 'singleBatch' option",
  });
});

/** A second client of the same server. */
async function startHarnessClient(): Promise<MongoClient> {
  const client = new MongoClient(h.server.getUri());
  await client.connect();
  return client;
}

/** A reply's cursor id as the Int64 getMore needs (the driver hands a small one out as a number). */
function idOf(reply: Document): Long {
  return Long.fromValue(reply.cursor.id as number | Long);
}
