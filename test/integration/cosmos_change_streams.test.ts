/**
 * Change streams in Cosmos DB mode (src/cosmos/change_streams/) through the driver: each rule
 * answers as Azure Cosmos DB for MongoDB does (Microsoft's page "Change streams in Azure Cosmos
 * DB's API for MongoDB"; docs/cosmos.md for what the page leaves open); with the rule switched off,
 * and in `--compat mongodb`, the same request behaves as mongod. Cosmos DB presents itself as the
 * replica set `globaldb`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Long, Timestamp, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import type { CosmosOptions } from '../../src/index.js';

/** The page's pipeline. */
const PAGE_PIPELINE: Document[] = [
  { $match: { operationType: { $in: ['insert', 'update', 'replace'] } } },
  { $project: { _id: 1, fullDocument: 1, ns: 1, documentKey: 1 } },
];
/** The page's shape, projecting the fields Cosmos DB does not hand out too. */
const WIDE_PIPELINE: Document[] = [
  { $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
  { $project: { _id: 1, operationType: 1, updateDescription: 1, fullDocument: 1, ns: 1, documentKey: 1, metadata: 1 } },
];
const SHAPE = 'Change stream must be followed by a match and then a project stage';
const FULL_DOCUMENT = "Change stream must be opened with the fullDocument option 'updateLookup'";

let cosmos: Harness;
let mongodb: Harness;
const extra: Harness[] = [];
beforeAll(async () => {
  cosmos = await startHarness({ compat: 'cosmos', replSet: 'globaldb', clock: 'manual' });
  mongodb = await startHarness({ compat: 'mongodb', replSet: 'rs0', clock: 'manual' });
});
afterAll(async () => {
  await cosmos.close();
  await mongodb.close();
});
afterEach(async () => {
  for (const h of extra.splice(0)) await h.close();
});

/** A Cosmos DB server with `options`, closed after the test. */
async function cosmosWith(options: CosmosOptions): Promise<Harness> {
  const h = await startHarness({ compat: 'cosmos', replSet: 'globaldb', clock: 'manual', cosmos: options });
  extra.push(h);
  return h;
}

/** The aggregate that opens a change stream on `coll` (null: the database). */
function openCommand(coll: string | null, spec: Document, pipeline: Document[]): Document {
  return { aggregate: coll ?? 1, pipeline: [{ $changeStream: spec }, ...pipeline], cursor: {} };
}

/** Opens a stream on `coll` of `h.db`; its cursor id. */
async function open(h: Harness, coll: string, pipeline: Document[] = PAGE_PIPELINE, spec: Document = { fullDocument: 'updateLookup' }): Promise<Long> {
  const reply = await h.db.command(openCommand(coll, spec, pipeline));
  // The driver hands a small Int64 out as a number; getMore needs it as an Int64.
  return Long.fromValue(reply.cursor.id as number | Long);
}

/** The next batch of the stream `id` on `coll` (something must be there: the manual clock does not move). */
async function next(h: Harness, coll: string, id: Long): Promise<Document[]> {
  const reply = await h.db.command({ getMore: id, collection: coll });
  return reply.cursor.nextBatch as Document[];
}

async function fresh(h: Harness, name: string): Promise<void> {
  await h.db.collection(name).drop().catch(() => undefined);
  await h.db.createCollection(name);
}

describe('changeStreamScope', () => {
  test('a database or whole-account stream is 2 BadValue; a collection stream opens', async () => {
    await fresh(cosmos, 'scope');
    const err = { code: 2, codeName: 'BadValue', errmsg: 'Expected type string but found int.' };
    expect(await errorOf(() => cosmos.db.command(openCommand(null, { fullDocument: 'updateLookup' }, PAGE_PIPELINE)))).toMatchObject(err);
    expect(await errorOf(() => cosmos.client.db('admin').command(openCommand(null, { fullDocument: 'updateLookup', allChangesForCluster: true }, PAGE_PIPELINE)))).toMatchObject(err);
    expect(await open(cosmos, 'scope')).toBeInstanceOf(Long);
  });

  test('switched off, and in mongodb mode, a database stream opens', async () => {
    const h = await cosmosWith({ rules: { changeStreamScope: false } });
    const reply = await h.db.command(openCommand(null, { fullDocument: 'updateLookup' }, PAGE_PIPELINE));
    expect(reply.cursor.firstBatch).toEqual([]);
    const mongo = await mongodb.db.command(openCommand(null, {}, []));
    expect(mongo.cursor.ns).toBe(`${mongodb.db.databaseName}.$cmd.aggregate`);
  });
});

describe('changeStreamPipeline', () => {
  test('no $match then $project is 2 BadValue', async () => {
    await fresh(cosmos, 'shape');
    const match = PAGE_PIPELINE[0]!;
    const project = PAGE_PIPELINE[1]!;
    for (const pipeline of [[], [match], [project], [project, match], [match, project, { $addFields: { x: 1 } }], [match, { $addFields: { x: 1 } }, project]]) {
      expect(await errorOf(() => open(cosmos, 'shape', pipeline))).toMatchObject({ code: 2, codeName: 'BadValue', errmsg: SHAPE });
    }
  });

  test("fullDocument other than 'updateLookup' is 2 BadValue", async () => {
    await fresh(cosmos, 'shape');
    for (const spec of [{}, { fullDocument: 'default' }, { fullDocument: 'whenAvailable' }]) {
      expect(await errorOf(() => open(cosmos, 'shape', PAGE_PIPELINE, spec))).toMatchObject({ code: 2, codeName: 'BadValue', errmsg: FULL_DOCUMENT });
    }
  });

  test('switched off, and in mongodb mode, any allowed pipeline opens', async () => {
    const h = await cosmosWith({ rules: { changeStreamPipeline: false } });
    await fresh(h, 'shape');
    expect(await open(h, 'shape', [], {})).toBeInstanceOf(Long);
    await fresh(mongodb, 'shape');
    expect(await open(mongodb, 'shape', [{ $addFields: { x: 1 } }], {})).toBeInstanceOf(Long);
  });
});

describe('changeStreamOptions', () => {
  test('showExpandedEvents and fullDocumentBeforeChange are 115; startAtOperationTime opens', async () => {
    await fresh(cosmos, 'opts');
    expect(await errorOf(() => open(cosmos, 'opts', PAGE_PIPELINE, { fullDocument: 'updateLookup', showExpandedEvents: true }))).toMatchObject({
      code: 115,
      codeName: 'CommandNotSupported',
      errmsg: "The $changeStream option 'showExpandedEvents' is not supported.",
    });
    expect(await errorOf(() => open(cosmos, 'opts', PAGE_PIPELINE, { fullDocument: 'updateLookup', fullDocumentBeforeChange: 'whenAvailable' }))).toMatchObject({
      code: 115,
      errmsg: "The $changeStream option 'fullDocumentBeforeChange' is not supported.",
    });
    const now = (await cosmos.db.command({ ping: 1 })).$clusterTime?.clusterTime as Timestamp | undefined;
    const at = now ?? new Timestamp({ t: 1, i: 1 });
    expect(await open(cosmos, 'opts', PAGE_PIPELINE, { fullDocument: 'updateLookup', startAtOperationTime: at })).toBeInstanceOf(Long);
  });

  test('the all versions and deletes feed refuses startAtOperationTime', async () => {
    const h = await cosmosWith({ capabilities: ['AllVersionsAndDeletesChangeFeed'] });
    await fresh(h, 'opts');
    expect(await errorOf(() => open(h, 'opts', PAGE_PIPELINE, { fullDocument: 'updateLookup', startAtOperationTime: new Timestamp({ t: 1, i: 1 }) }))).toMatchObject({
      code: 115,
      errmsg: "The $changeStream option 'startAtOperationTime' is not supported by the all versions and deletes change feed; start from now or from a resume token.",
    });
  });

  test('switched off, and in mongodb mode, the options open', async () => {
    const h = await cosmosWith({ rules: { changeStreamOptions: false } });
    await fresh(h, 'opts');
    expect(await open(h, 'opts', PAGE_PIPELINE, { fullDocument: 'updateLookup', showExpandedEvents: true, fullDocumentBeforeChange: 'whenAvailable' })).toBeInstanceOf(Long);
    await fresh(mongodb, 'opts');
    expect(await open(mongodb, 'opts', [], { showExpandedEvents: true, fullDocumentBeforeChange: 'whenAvailable' })).toBeInstanceOf(Long);
  });
});

describe('changeStreamNamespaceNotFound', () => {
  test('a missing collection is 26 at open', async () => {
    await cosmos.db.collection('missing').drop().catch(() => undefined);
    expect(await errorOf(() => open(cosmos, 'missing'))).toMatchObject({
      code: 26,
      codeName: 'NamespaceNotFound',
      errmsg: `Collection '${cosmos.db.databaseName}.missing' not found.`,
    });
  });

  test('a drop answers 26 instead of invalidate; the cursor is gone', async () => {
    await fresh(cosmos, 'dropped');
    const id = await open(cosmos, 'dropped');
    await cosmos.db.collection('dropped').insertOne({ _id: 1 });
    expect((await next(cosmos, 'dropped', id)).map((e) => e.fullDocument)).toEqual([{ _id: 1 }]);
    await cosmos.db.collection('dropped').insertOne({ _id: 2 });
    await cosmos.db.collection('dropped').drop();
    // The latest version feed no longer has 2 (dropped with its collection).
    expect(await errorOf(() => next(cosmos, 'dropped', id))).toMatchObject({ code: 26, errmsg: `Collection '${cosmos.db.databaseName}.dropped' not found.` });
    expect(await errorOf(() => next(cosmos, 'dropped', id))).toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  });

  test('the events before a drop come first (the all versions feed keeps them), then 26', async () => {
    const h = await cosmosWith({ capabilities: ['AllVersionsAndDeletesChangeFeed'] });
    await fresh(h, 'dropped');
    const id = await open(h, 'dropped');
    await h.db.collection('dropped').insertOne({ _id: 1 });
    await h.db.collection('dropped').drop();
    expect((await next(h, 'dropped', id)).map((e) => e.fullDocument)).toEqual([{ _id: 1 }]);
    expect(await errorOf(() => next(h, 'dropped', id))).toMatchObject({ code: 26, errmsg: `Collection '${h.db.databaseName}.dropped' not found.` });
  });

  test('through the driver, the stream rejects with 26', async () => {
    await fresh(cosmos, 'driver');
    const stream = cosmos.db.collection('driver').watch(PAGE_PIPELINE, { fullDocument: 'updateLookup' });
    await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
    await cosmos.db.collection('driver').drop();
    expect(await errorOf(() => stream.next())).toMatchObject({ code: 26, codeName: 'NamespaceNotFound' });
    await stream.close();
  });

  test('renameCollection is refused (115), and a rename, where the rule that refuses it is off, answers 26 too', async () => {
    expect(await errorOf(() => cosmos.db.collection('renamed').rename('renamed_to'))).toMatchObject({ code: 115, errmsg: 'Command renameCollection not supported.' });
    const h = await cosmosWith({ rules: { unsupportedCommands: false } });
    await fresh(h, 'renamed');
    const id = await open(h, 'renamed');
    await h.db.collection('renamed').rename('renamed_to');
    expect(await errorOf(() => next(h, 'renamed', id))).toMatchObject({ code: 26, errmsg: `Collection '${h.db.databaseName}.renamed' not found.` });
  });

  test('switched off, and in mongodb mode, a missing collection opens and a drop is an invalidate event', async () => {
    const h = await cosmosWith({ rules: { changeStreamNamespaceNotFound: false, changeStreamEvents: false } });
    const id = await open(h, 'later');
    await h.db.collection('later').insertOne({ _id: 1 });
    await h.db.collection('later').drop();
    // changeStreamEvents is off too: mongod's events (the latest version feed would not show a document dropped since).
    expect((await next(h, 'later', id)).map((e) => e.fullDocument ?? e.operationType)).toEqual([{ _id: 1 }, 'invalidate']);
    await mongodb.db.collection('later').drop().catch(() => undefined);
    const mid = await open(mongodb, 'later', [], {});
    await mongodb.db.collection('later').insertOne({ _id: 1 });
    await mongodb.db.collection('later').drop();
    expect((await next(mongodb, 'later', mid)).map((e) => e.operationType)).toEqual(['insert', 'drop', 'invalidate']);
  });
});

describe('changeStreamEvents', () => {
  /** The writes every case makes: insert, update, replace, delete, an update of a document deleted before the read, TTL expiry. */
  async function writes(h: Harness, name: string): Promise<void> {
    const c = h.db.collection(name);
    await c.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }, { _id: 3, a: 3, ttl: 5 }]);
    await c.updateOne({ _id: 1 }, { $set: { a: 10 } });
    await c.replaceOne({ _id: 2 }, { b: 2 });
    await c.updateOne({ _id: 2 }, { $set: { b: 20 } });
    await c.deleteOne({ _id: 2 });
    await h.client.db('admin').command({ mayflyAdvanceClock: 6 });
    await h.client.db('admin').command({ mayflyRunTtlPass: 1 });
    await c.insertOne({ _id: 'end' });
  }

  test('inserts, updates and replacements of documents still there, as they are now, without operationType or updateDescription', async () => {
    await fresh(cosmos, 'events');
    await cosmos.db.collection('events').createIndex({ _ts: 1 }, { expireAfterSeconds: -1 });
    const id = await open(cosmos, 'events', WIDE_PIPELINE);
    await writes(cosmos, 'events');
    const events = await next(cosmos, 'events', id);
    const ns = { db: cosmos.db.databaseName, coll: 'events' };
    // The latest version of each document still there: 2 (deleted) and 3 (expired) are gone from the feed.
    expect(events.map(({ _id, ...rest }) => rest)).toEqual([
      { fullDocument: { _id: 1, a: 10 }, ns, documentKey: { _id: 1 } },
      { fullDocument: { _id: 1, a: 10 }, ns, documentKey: { _id: 1 } },
      { fullDocument: { _id: 'end' }, ns, documentKey: { _id: 'end' } },
    ]);
  });

  test("the $match still sees operationType: 'insert' alone selects the inserts", async () => {
    await fresh(cosmos, 'inserts');
    const id = await open(cosmos, 'inserts', [{ $match: { operationType: 'insert' } }, { $project: { fullDocument: 1 } }]);
    const c = cosmos.db.collection('inserts');
    await c.insertOne({ _id: 1 });
    await c.updateOne({ _id: 1 }, { $set: { a: 1 } });
    await c.insertOne({ _id: 2 });
    // The update is not selected; the insert shows the document as it is now.
    expect((await next(cosmos, 'inserts', id)).map(({ _id, ...rest }) => rest)).toEqual([{ fullDocument: { _id: 1, a: 1 } }, { fullDocument: { _id: 2 } }]);
  });

  test('switched off, and in mongodb mode, every event as mongod shows it', async () => {
    const h = await cosmosWith({ rules: { changeStreamEvents: false } });
    for (const [server, name] of [[h, 'events'], [mongodb, 'events']] as const) {
      await fresh(server, name);
      await server.db.collection(name).createIndex({ _ts: 1 }, { expireAfterSeconds: -1 });
      const id = await open(server, name, WIDE_PIPELINE);
      await writes(server, name);
      const events = await next(server, name, id);
      expect(events.map((e) => [e.operationType, e.documentKey._id, e.updateDescription ?? null])).toEqual([
        ['insert', 1, null],
        ['insert', 2, null],
        ['insert', 3, null],
        ['update', 1, { updatedFields: { a: 10 }, removedFields: [], truncatedArrays: [] }],
        ['replace', 2, null],
        ['update', 2, { updatedFields: { b: 20 }, removedFields: [], truncatedArrays: [] }],
        ['delete', 2, null],
        ['delete', 3, null],
        ['insert', 'end', null],
      ]);
    }
  });
});

describe('the all versions and deletes feed (AllVersionsAndDeletesChangeFeed)', () => {
  test('every version, deletes and TTL expirations with the feed metadata', async () => {
    const h = await cosmosWith({ capabilities: ['AllVersionsAndDeletesChangeFeed'] });
    await fresh(h, 'all');
    const c = h.db.collection('all');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: -1 });
    const id = await open(h, 'all', WIDE_PIPELINE);
    await c.insertOne({ _id: 1, a: 1, ttl: 5 });
    await c.updateOne({ _id: 1 }, { $set: { a: 2 } });
    await c.updateOne({ _id: 1 }, { $set: { a: 3 } });
    await c.insertOne({ _id: 2 });
    await c.deleteOne({ _id: 2 });
    await h.client.db('admin').command({ mayflyAdvanceClock: 6 });
    await h.client.db('admin').command({ mayflyRunTtlPass: 1 });
    await c.insertOne({ _id: 'end' });
    const events = await next(h, 'all', id);
    expect(events.map((e) => [e.operationType, e.documentKey._id, e.fullDocument ?? null, e.metadata.operationType, e.metadata.timeToLiveExpired ?? null, e.updateDescription ?? null])).toEqual([
      ['insert', 1, { _id: 1, a: 1, ttl: 5 }, 'create', null, null],
      // Each update's version, not the document as it is when read (it has expired since).
      ['update', 1, { _id: 1, a: 2, ttl: 5 }, 'replace', null, null],
      ['update', 1, { _id: 1, a: 3, ttl: 5 }, 'replace', null, null],
      ['insert', 2, { _id: 2 }, 'create', null, null],
      ['delete', 2, null, 'delete', false, null],
      ['delete', 1, null, 'delete', true, null],
      ['insert', 'end', { _id: 'end' }, 'create', null, null],
    ]);
    const first = events[0]!.metadata as Document;
    expect(first.lsn).toBeInstanceOf(Long);
    expect(typeof first.crts).toBe('number');
    // The TTL deletion happened 6 s after the insert, in a later commit.
    expect((events[5]!.metadata.crts as number) - first.crts).toBe(6);
    expect((events[5]!.metadata.lsn as Long).greaterThan(first.lsn as Long)).toBe(true);
  });
});

describe('changeStreamThrottledPage', () => {
  test('a throttled getMore of a stream answers an empty page, the stream then goes on', async () => {
    const h = await cosmosWith({ ruPerSecond: 10 });
    await fresh(h, 'throttled');
    const id = await open(h, 'throttled');
    const open1 = await h.db.command({ getLastRequestStatistics: 1 });
    expect(open1.CommandName).toBe('aggregate');
    await h.db.collection('throttled').insertOne({ _id: 1, pad: 'x'.repeat(20_000) }); // far over 10 RU: in debt
    const page = await h.db.command({ getMore: id, collection: 'throttled' });
    expect(page.cursor.nextBatch).toEqual([]);
    expect(Long.fromValue(page.cursor.id as number | Long).equals(id)).toBe(true);
    expect(page.cursor.postBatchResumeToken).toBeDefined();
    // Another request is still 16500.
    expect(await errorOf(() => h.db.collection('throttled').findOne({}))).toMatchObject({ code: 16500 });
    await h.client.db('admin').command({ mayflyAdvanceClock: 60 });
    expect((await next(h, 'throttled', id)).map((e) => e.documentKey)).toEqual([{ _id: 1 }]);
  });

  test('switched off, the getMore is 16500', async () => {
    const h = await cosmosWith({ ruPerSecond: 10, rules: { changeStreamThrottledPage: false } });
    await fresh(h, 'throttled');
    const id = await open(h, 'throttled');
    await h.db.collection('throttled').insertOne({ _id: 1, pad: 'x'.repeat(20_000) });
    expect(await errorOf(() => h.db.command({ getMore: id, collection: 'throttled' }))).toMatchObject({ code: 16500, codeName: 'RequestRateTooLarge' });
  });
});
