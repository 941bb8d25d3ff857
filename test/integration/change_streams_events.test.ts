/**
 * Change streams through the official driver on the one-node replica set: `watch()` on a
 * collection, a database and the cluster; every event type in mongod 8.2's shape; resuming
 * (resumeAfter after a dropped connection, startAfter past an invalidate, startAtOperationTime,
 * 286 past the kept history); updateLookup and pre-/post-images; $changeStreamSplitLargeEvent;
 * the stages allowed after $changeStream; the standalone's 40573.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeStream, ChangeStreamDocument, Document, ResumeToken, Timestamp } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
const streams: ChangeStream[] = [];

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', compat: 'mongodb' });
});
afterAll(async () => {
  for (const s of streams) await s.close();
  await h.close();
});

/** A stream kept for closing; its aggregate is sent before the test writes. */
async function open<T extends Document>(stream: ChangeStream<T>): Promise<ChangeStream<T>> {
  streams.push(stream as unknown as ChangeStream);
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
  return stream;
}

/** The next `n` events of `stream`. */
async function take(stream: ChangeStream, n: number): Promise<ChangeStreamDocument[]> {
  const out: ChangeStreamDocument[] = [];
  while (out.length < n) out.push(await stream.next());
  return out;
}

/** An event without its times and token (which the tests check separately). */
function shape(event: Document): Document {
  const { _id, clusterTime, wallTime, collectionUUID, ...rest } = event;
  expect(typeof (_id as Document)._data).toBe('string');
  expect(clusterTime?.constructor?.name).toBe('Timestamp');
  expect(wallTime).toBeInstanceOf(Date);
  void collectionUUID;
  return rest;
}

describe('the three levels', () => {
  it('a collection stream sees insert, update, replace, delete, then drop and invalidate', async () => {
    const db = h.db;
    const coll = db.collection('levels');
    await coll.insertOne({ _id: 0 });
    const stream = await open(coll.watch());
    await coll.insertOne({ _id: 1, a: 1, b: { c: 1 } });
    await coll.updateOne({ _id: 1 }, { $set: { 'b.c': 2, d: [1, 2] }, $unset: { a: '' } });
    await coll.replaceOne({ _id: 1 }, { x: 1 });
    await coll.deleteOne({ _id: 1 });
    await coll.drop();
    const ns = { db: db.databaseName, coll: 'levels' };
    const events = (await take(stream, 6)).map(shape);
    expect(events).toEqual([
      { operationType: 'insert', fullDocument: { _id: 1, a: 1, b: { c: 1 } }, ns, documentKey: { _id: 1 } },
      { operationType: 'update', ns, documentKey: { _id: 1 }, updateDescription: { updatedFields: { 'b.c': 2, d: [1, 2] }, removedFields: ['a'], truncatedArrays: [] } },
      { operationType: 'replace', fullDocument: { _id: 1, x: 1 }, ns, documentKey: { _id: 1 } },
      { operationType: 'delete', ns, documentKey: { _id: 1 } },
      { operationType: 'drop', ns },
      { operationType: 'invalidate' },
    ]);
    expect(stream.closed || (await stream.tryNext().catch(() => null)) === null).toBe(true);
  });

  it('a database stream sees its collections, rename and dropDatabase, and not other databases', async () => {
    const db = h.client.db('cs_level_db');
    const other = h.client.db('cs_level_other');
    await db.collection('a').insertOne({ _id: 0 });
    const stream = await open(db.watch());
    await other.collection('x').insertOne({ _id: 1 });
    await db.collection('a').insertOne({ _id: 2 });
    await db.collection('a').rename('b');
    await db.dropDatabase();
    const events = (await take(stream, 5)).map(shape);
    expect(events).toEqual([
      { operationType: 'insert', fullDocument: { _id: 2 }, ns: { db: 'cs_level_db', coll: 'a' }, documentKey: { _id: 2 } },
      { operationType: 'rename', ns: { db: 'cs_level_db', coll: 'a' }, to: { db: 'cs_level_db', coll: 'b' } },
      { operationType: 'drop', ns: { db: 'cs_level_db', coll: 'b' } },
      { operationType: 'dropDatabase', ns: { db: 'cs_level_db' } },
      { operationType: 'invalidate' },
    ]);
  });

  it('a cluster stream sees every database but admin, config and local', async () => {
    const stream = await open(h.client.watch());
    await h.client.db('cs_cluster_1').collection('c').insertOne({ _id: 1 });
    await h.client.db('admin').command({ ping: 1 });
    await h.client.db('cs_cluster_2').collection('c').insertOne({ _id: 2 });
    const events = await take(stream, 2);
    expect(events.map((e) => (e as { ns: Document }).ns)).toEqual([
      { db: 'cs_cluster_1', coll: 'c' },
      { db: 'cs_cluster_2', coll: 'c' },
    ]);
  });
});

describe('expanded events', () => {
  it('showExpandedEvents adds create, createIndexes, dropIndexes, modify and collectionUUID', async () => {
    const db = h.client.db('cs_expanded');
    const stream = await open(db.watch([], { showExpandedEvents: true }));
    await db.createCollection('e');
    await db.collection('e').createIndex({ k: 1 }, { name: 'k_1' });
    await db.command({ collMod: 'e', validator: { k: { $exists: true } } });
    await db.collection('e').dropIndex('k_1');
    await db.collection('e').updateOne({ _id: 1 }, { $set: { k: 1 } }, { upsert: true });
    await db.collection('e').updateOne({ _id: 1 }, { $set: { '7': 1 } });
    const events = await take(stream, 6);
    expect(events.map((e) => e.operationType)).toEqual(['create', 'createIndexes', 'modify', 'dropIndexes', 'insert', 'update']);
    expect((events[0] as Document).nsType).toBe('collection');
    expect((events[0] as Document).operationDescription).toEqual({ idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } });
    expect((events[1] as Document).operationDescription).toEqual({ indexes: [{ v: 2, key: { k: 1 }, name: 'k_1' }] });
    expect((events[2] as Document).operationDescription).toEqual({ validator: { k: { $exists: true } } });
    expect((events[4] as Document).collectionUUID?.constructor?.name).toBe('UUID');
    expect((events[5] as Document).updateDescription).toEqual({ updatedFields: { '7': 1 }, removedFields: [], truncatedArrays: [], disambiguatedPaths: { '7': ['7'] } });
  });
});

describe('resuming', () => {
  it('resumes after a dropped connection without losing or repeating an event', async () => {
    const coll = h.db.collection('resume');
    const stream = await open(coll.watch());
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    const [first] = await take(stream, 1);
    // The client's connections go away: the next getMore fails, the driver resumes from the token.
    await h.client.db('admin').command({ configureFailPoint: 'failCommand', mode: { times: 1 }, data: { failCommands: ['getMore'], closeConnection: true } });
    await coll.insertOne({ _id: 3 });
    const rest = await take(stream, 2);
    expect([first, ...rest].map((e) => (e as { documentKey: Document }).documentKey._id)).toEqual([1, 2, 3]);
  });

  it('resumeAfter, startAfter past an invalidate, startAtOperationTime', async () => {
    const db = h.client.db('cs_resume2');
    const coll = db.collection('r');
    const stream = await open(coll.watch());
    await coll.insertOne({ _id: 1 });
    await coll.insertOne({ _id: 2 });
    const [one, two] = await take(stream, 2);
    const again = await open(coll.watch([], { resumeAfter: one!._id }));
    expect(((await again.next()) as Document).documentKey).toEqual({ _id: 2 });
    const atTime = await open(coll.watch([], { startAtOperationTime: (two as { clusterTime: Timestamp }).clusterTime }));
    expect(((await atTime.next()) as Document).documentKey).toEqual({ _id: 2 });
    await coll.drop();
    const [, invalidate] = await take(stream, 2);
    expect(invalidate!.operationType).toBe('invalidate');
    const refused = await errorOf(() => db.command({ aggregate: 'r', pipeline: [{ $changeStream: { resumeAfter: invalidate!._id } }], cursor: {} }));
    expect([refused.code, refused.errmsg]).toEqual([260, "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification"]);
    const after = await open(coll.watch([], { startAfter: invalidate!._id }));
    await coll.insertOne({ _id: 3 });
    expect(((await after.next()) as Document).documentKey).toEqual({ _id: 3 });
  });

  it('every batch carries a postBatchResumeToken, empty ones too', async () => {
    const db = h.client.db('cs_pbrt');
    const reply = await db.command({ aggregate: 'p', pipeline: [{ $changeStream: {} }], cursor: {} }, { promoteLongs: false });
    expect(reply.cursor.firstBatch).toEqual([]);
    const first = reply.cursor.postBatchResumeToken as ResumeToken as Document;
    expect(typeof first._data).toBe('string');
    await db.collection('p').insertOne({ _id: 1 });
    const more = await db.command({ getMore: reply.cursor.id, collection: 'p', maxTimeMS: 10 });
    expect(more.cursor.nextBatch.map((e: Document) => e.documentKey)).toEqual([{ _id: 1 }]);
    expect(more.cursor.postBatchResumeToken).toEqual(more.cursor.nextBatch[0]._id);
    const empty = await db.command({ getMore: reply.cursor.id, collection: 'p', maxTimeMS: 10 });
    expect(empty.cursor.nextBatch).toEqual([]);
    expect((empty.cursor.postBatchResumeToken._data as string) > (more.cursor.postBatchResumeToken._data as string)).toBe(true);
    await db.command({ killCursors: 'p', cursors: [reply.cursor.id] });
  });

  it('a resume point older than the kept history is 286 ChangeStreamHistoryLost', async () => {
    const db = h.client.db('cs_history');
    const coll = db.collection('h');
    const stream = await open(coll.watch());
    await coll.insertOne({ _id: 0 });
    const [event] = await take(stream, 1);
    await h.client.db('admin').command({ setParameter: 1, changeStreamHistorySize: 3 });
    try {
      await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 4 }]);
      const lost = await errorOf(() => db.command({ aggregate: 'h', pipeline: [{ $changeStream: { resumeAfter: event!._id } }], cursor: {} }));
      expect([lost.code, lost.codeName, lost.errorLabels]).toEqual([286, 'ChangeStreamHistoryLost', ['NonResumableChangeStreamError']]);
    } finally {
      await h.client.db('admin').command({ setParameter: 1, changeStreamHistorySize: 100_000 });
    }
  });
});

describe('documents before and after', () => {
  it('fullDocument updateLookup reads the current document (null once deleted)', async () => {
    const coll = h.db.collection('lookup');
    await coll.insertOne({ _id: 1, n: 0 });
    const stream = await open(coll.watch([], { fullDocument: 'updateLookup' }));
    await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } });
    expect(((await stream.next()) as Document).fullDocument).toEqual({ _id: 1, n: 1 });
    await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } });
    await coll.deleteOne({ _id: 1 });
    expect(((await stream.next()) as Document).fullDocument).toBeNull();
  });

  it('pre- and post-images with changeStreamPreAndPostImages; required fails without them', async () => {
    const db = h.client.db('cs_images');
    await db.createCollection('img', { changeStreamPreAndPostImages: { enabled: true } });
    const listed = await db.listCollections({ name: 'img' }).toArray();
    expect((listed[0] as Document).options).toEqual({ changeStreamPreAndPostImages: { enabled: true } });
    const coll = db.collection('img');
    await coll.insertOne({ _id: 1, v: 'a' });
    const stream = await open(coll.watch([], { fullDocument: 'required', fullDocumentBeforeChange: 'required' }));
    await coll.updateOne({ _id: 1 }, { $set: { v: 'b' } });
    await coll.deleteOne({ _id: 1 });
    const [update, del] = await take(stream, 2);
    expect([(update as Document).fullDocumentBeforeChange, (update as Document).fullDocument]).toEqual([{ _id: 1, v: 'a' }, { _id: 1, v: 'b' }]);
    expect((del as Document).fullDocumentBeforeChange).toEqual({ _id: 1, v: 'b' });

    await db.command({ collMod: 'img', changeStreamPreAndPostImages: { enabled: false } });
    expect(((await db.listCollections({ name: 'img' }).toArray())[0] as Document).options).toEqual({});
    await coll.insertOne({ _id: 2 });
    const plain = await db.command({ aggregate: 'img', pipeline: [{ $changeStream: { fullDocumentBeforeChange: 'required' } }], cursor: {} }, { promoteLongs: false });
    await coll.deleteOne({ _id: 2 });
    const missing = await errorOf(() => db.command({ getMore: plain.cursor.id, collection: 'img', maxTimeMS: 10 }));
    expect(missing.code).toBe(47);
    expect(missing.errmsg).toMatch(/^Change stream was configured to require a pre-image for all update, delete and replace events, but the pre-image was not found for event: /);
    const bad = await errorOf(() => db.command({ collMod: 'img', changeStreamPreAndPostImages: { enabled: 1 } }));
    expect([bad.code, bad.errmsg]).toEqual([14, "BSON field 'changeStreamPreAndPostImages.enabled' is the wrong type 'int', expected type 'bool'"]);
  });
});

describe('the pipeline after $changeStream', () => {
  it('$match and $project apply to events; other stages are 20', async () => {
    const db = h.client.db('cs_pipeline');
    const coll = db.collection('p');
    const stream = await open(coll.watch([{ $match: { 'fullDocument.keep': true } }, { $project: { 'fullDocument.keep': 1, operationType: 1 } }]));
    await coll.insertMany([{ _id: 1, keep: false }, { _id: 2, keep: true, other: 1 }]);
    const { _id, ...event } = (await stream.next()) as Document;
    expect(typeof _id._data).toBe('string');
    expect(event).toEqual({ operationType: 'insert', fullDocument: { keep: true } });
    const refused = await errorOf(() => db.command({ aggregate: 'p', pipeline: [{ $changeStream: {} }, { $group: { _id: null } }], cursor: {} }));
    expect([refused.code, refused.errmsg]).toEqual([20, '$group is not permitted in a $changeStream pipeline']);
    const unknown = await errorOf(() => db.command({ aggregate: 'p', pipeline: [{ $changeStream: { bogus: 1 } }], cursor: {} }));
    expect([unknown.code, unknown.errmsg]).toEqual([40415, "BSON field '$changeStream.bogus' is an unknown field."]);
    const mode = await errorOf(() => db.command({ aggregate: 'p', pipeline: [{ $changeStream: { fullDocument: 'always' } }], cursor: {} }));
    expect([mode.code, mode.errmsg]).toEqual([2, "Enumeration value 'always' for field '$changeStream.fullDocument' is not a valid value."]);
    const cluster = await errorOf(() => db.command({ aggregate: 1, pipeline: [{ $changeStream: { allChangesForCluster: true } }], cursor: {} }));
    expect(cluster.code).toBe(72);
  });

  it('$changeStreamSplitLargeEvent splits an event over 16 MiB into fragments', async () => {
    const db = h.client.db('cs_split');
    await db.createCollection('big', { changeStreamPreAndPostImages: { enabled: true } });
    const coll = db.collection('big');
    const half = 'x'.repeat(9 * 1024 * 1024);
    await coll.insertOne({ _id: 1, a: half });
    const stream = await open(coll.watch([{ $changeStreamSplitLargeEvent: {} }], { fullDocumentBeforeChange: 'required' }));
    await coll.replaceOne({ _id: 1 }, { b: half });
    const [first, second] = await take(stream, 2);
    expect([(first as Document).splitEvent, (second as Document).splitEvent]).toEqual([{ fragment: 1, of: 2 }, { fragment: 2, of: 2 }]);
    expect((first as Document).fullDocument).toEqual({ _id: 1, b: half });
    expect((second as Document).fullDocumentBeforeChange).toEqual({ _id: 1, a: half });
  });
});

describe('getMore waits for the commit', () => {
  it('a waiting getMore is answered by the insert, and killCursors ends a wait with 237', async () => {
    const db = h.client.db('cs_wait');
    const reply = await db.command({ aggregate: 'w', pipeline: [{ $changeStream: {} }], cursor: {} }, { promoteLongs: false });
    const waiting = db.command({ getMore: reply.cursor.id, collection: 'w', maxTimeMS: 60_000 });
    await db.collection('w').insertOne({ _id: 1 });
    const answered = await waiting;
    expect(answered.cursor.nextBatch.map((e: Document) => e.documentKey)).toEqual([{ _id: 1 }]);
    const second = db.command({ getMore: reply.cursor.id, collection: 'w', maxTimeMS: 60_000 });
    const killed = await db.command({ killCursors: 'w', cursors: [reply.cursor.id] }, { promoteLongs: false });
    expect(killed.cursorsKilled).toEqual([reply.cursor.id]);
    const err = await errorOf(() => second);
    expect(err.code).toBe(237);
  });
});

describe('standalone', () => {
  it('refuses $changeStream with 40573', async () => {
    const sa = await startHarness({ compat: 'mongodb' });
    try {
      const err = await errorOf(() => sa.db.command({ aggregate: 'c', pipeline: [{ $changeStream: {} }], cursor: {} }));
      expect([err.code, err.errmsg]).toEqual([40573, 'The $changeStream stage is only supported on replica sets']);
    } finally {
      await sa.close();
    }
  });
});
