/**
 * Every kind of write reaches the write path's observers (src/storage/write/observers.ts) with
 * cluster times from the server's logical clock, strictly increasing from one commit to the next:
 * insert, update, delete, findAndModify, both bulkWrites, `$out`, `$merge`, putRow, the TTL
 * reaper's deletions and capped eviction, and the DDL the catalog makes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { Server } from '../../src/server/server.js';
import type { OpObserver } from '../../src/storage/write/observers.js';
import type { Timestamp } from '../../src/bson/library.js';

let server: Server;
let client: MongoClient;
let db: Db;
/** [kind, ns, cluster time] of each event since the last reset. */
let seen: Array<[string, string, Timestamp]> = [];

beforeAll(async () => {
  server = new Server({ port: 0, clock: 'manual', compat: 'mongodb', logLevel: 'silent' });
  await server.listen();
  const record = (kind: string, ns: string, time: Timestamp): void => {
    seen.push([kind, ns, time]);
  };
  const observer: OpObserver = {
    onInserts: (events) => events.forEach((e) => record(e.fromMigrate ? 'insert(migrate)' : 'insert', e.ns, e.clusterTime)),
    onUpdate: (e) => record(e.op, e.ns, e.clusterTime),
    onDelete: (e) => record(e.cause ? `delete(${e.cause})` : 'delete', e.ns, e.clusterTime),
    onCreateCollection: (e) => record('create', e.ns, e.clusterTime),
    onDropCollection: (e) => record('drop', e.ns, e.clusterTime),
    onRenameCollection: (e) => record(`rename->${e.to}`, e.from, e.clusterTime),
    onCreateIndexes: (e) => record('createIndexes', e.ns, e.clusterTime),
    onDropIndexes: (e) => record('dropIndexes', e.ns, e.clusterTime),
    onCollMod: (e) => record('collMod', e.ns, e.clusterTime),
    onDropDatabase: (e) => record('dropDatabase', e.db, e.clusterTime),
  };
  server.catalog.writes.observers.add(observer);
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  db = client.db('wp');
});

afterAll(async () => {
  await client.close();
  await server.close();
});

beforeEach(() => {
  seen = [];
});

/** A collection of `wp` whose documents have any `_id`. */
const coll = (name: string) => db.collection<{ _id: number; v?: number; x?: number; at?: Date }>(name);

/** The kinds and namespaces seen, with tmp.agg_out names made stable. */
const events = (): string[][] => seen.map(([kind, ns]) => [kind.replace(/tmp\.agg_out\.[0-9a-f-]+/, 'tmp.agg_out.*'), ns.replace(/tmp\.agg_out\.[0-9a-f-]+/, 'tmp.agg_out.*')]);

/** True when no event's time goes back, and those of different commits differ. */
function nonDecreasing(): boolean {
  for (let i = 1; i < seen.length; i++) if (seen[i]![2].compare(seen[i - 1]![2]) < 0) return false;
  return true;
}

/** The number of distinct cluster times seen. */
const commits = (): number => new Set(seen.map(([, , t]) => t.toString())).size;

describe('write path observers, through the commands', () => {
  test('insert: an implicit create, then one insert event per document in one commit', async () => {
    await coll('a').insertMany([{ _id: 1 }, { _id: 2 }]);
    expect(events()).toEqual([
      ['create', 'wp.a'],
      ['insert', 'wp.a'],
      ['insert', 'wp.a'],
    ]);
    expect(commits()).toBe(2);
    expect(nonDecreasing()).toBe(true);
    expect(seen[1]![2].compare(server.logicalClock.now())).toBeLessThanOrEqual(0);
  });

  test('update (operators, replacement, upsert), delete and findAndModify: one commit per statement', async () => {
    await coll('a').updateOne({ _id: 1 }, { $set: { v: 1 } });
    await coll('a').replaceOne({ _id: 2 }, { v: 2 });
    await coll('a').updateOne({ _id: 3 }, { $set: { v: 3 } }, { upsert: true });
    await coll('a').findOneAndUpdate({ _id: 3 }, { $inc: { v: 1 } });
    await coll('a').findOneAndDelete({ _id: 3 });
    await coll('a').deleteMany({});
    expect(events()).toEqual([
      ['update', 'wp.a'],
      ['replace', 'wp.a'],
      ['insert', 'wp.a'],
      ['update', 'wp.a'],
      ['delete', 'wp.a'],
      ['delete', 'wp.a'],
      ['delete', 'wp.a'],
    ]);
    expect(commits()).toBe(6);
    expect(nonDecreasing()).toBe(true);
  });

  test("bulkWrite: the driver's batches and the 8.0 command", async () => {
    await coll('b').bulkWrite([{ insertOne: { document: { _id: 1 } } }, { updateOne: { filter: { _id: 1 }, update: { $set: { x: 1 } } } }, { deleteOne: { filter: { _id: 1 } } }]);
    await client.bulkWrite<{ 'wp.b': { _id: number } }>([
      { name: 'insertOne', namespace: 'wp.b', document: { _id: 2 } },
      { name: 'deleteOne', namespace: 'wp.b', filter: { _id: 2 } },
    ]);
    expect(events()).toEqual([
      ['create', 'wp.b'],
      ['insert', 'wp.b'],
      ['update', 'wp.b'],
      ['delete', 'wp.b'],
      ['insert', 'wp.b'],
      ['delete', 'wp.b'],
    ]);
    expect(commits()).toBe(6);
    expect(nonDecreasing()).toBe(true);
  });

  test('$out: a temporary collection filled and renamed over the target; $merge: updates and inserts', async () => {
    await coll('src').insertMany([{ _id: 1, v: 1 }, { _id: 2, v: 2 }]);
    await coll('out').insertOne({ _id: 0 });
    seen = [];
    await coll('src').aggregate([{ $out: 'out' }]).toArray();
    expect(events()).toEqual([
      ['create', 'wp.tmp.agg_out.*'],
      ['insert', 'wp.tmp.agg_out.*'],
      ['insert', 'wp.tmp.agg_out.*'],
      ['rename->wp.out', 'wp.tmp.agg_out.*'],
    ]);
    await coll('out').updateMany({}, { $set: { old: true } });
    seen = [];
    // A replacement that changes nothing is no event: the target's documents differ first.
    await coll('src').aggregate([{ $merge: { into: 'out', whenMatched: 'replace' } }]).toArray();
    await coll('src').aggregate([{ $merge: { into: 'merged' } }]).toArray();
    expect(events()).toEqual([
      ['replace', 'wp.out'],
      ['replace', 'wp.out'],
      ['create', 'wp.merged'],
      ['insert', 'wp.merged'],
      ['insert', 'wp.merged'],
    ]);
    expect(nonDecreasing()).toBe(true);
  });

  test('capped eviction and the TTL reaper are operations of the write path', async () => {
    await db.createCollection('capped', { capped: true, size: 4096, max: 1 });
    await coll('capped').insertOne({ _id: 1 });
    await coll('capped').insertOne({ _id: 2 });
    await coll('ttl').createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await coll('ttl').insertOne({ _id: 1, at: new Date(server.clock.now()) });
    seen = [];
    server.clock.advance(5000);
    await db.admin().command({ mayflyRunTtlPass: 1 });
    expect(events()).toEqual([['delete(ttl)', 'wp.ttl']]);
    expect(await coll('capped').find().toArray()).toEqual([{ _id: 2 }]);
  });

  test('DDL: createIndexes, collMod, dropIndexes, renameCollection, drop, dropDatabase', async () => {
    await coll('d').insertOne({ _id: 1 });
    await coll('d').createIndex({ k: 1 });
    await db.command({ collMod: 'd', index: { keyPattern: { k: 1 }, hidden: true } });
    await coll('d').dropIndex('k_1');
    await coll('d').rename('e');
    await coll('e').drop();
    const other = client.db('wp_other');
    await other.collection<{ _id: number }>('x').insertOne({ _id: 1 });
    await other.dropDatabase();
    expect(events()).toEqual([
      ['create', 'wp.d'],
      ['insert', 'wp.d'],
      ['createIndexes', 'wp.d'],
      ['collMod', 'wp.d'],
      ['dropIndexes', 'wp.d'],
      ['rename->wp.e', 'wp.d'],
      ['drop', 'wp.e'],
      ['create', 'wp_other.x'],
      ['insert', 'wp_other.x'],
      ['drop', 'wp_other.x'],
      ['dropDatabase', 'wp_other'],
    ]);
    expect(commits()).toBe(11);
    expect(nonDecreasing()).toBe(true);
  });
});
