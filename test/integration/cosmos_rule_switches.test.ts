/**
 * Each Cosmos DB rule is its own switch: with `cosmos: { rules: { <rule>: false } }` exactly that
 * rule is lifted (its probe behaves as on mongod) and every other rule still answers as Cosmos DB.
 * One probe per rule, run on a server per switch; `transactionLimits` needs a replica set and has
 * its own file (cosmos_transactions.test.ts), as does the clock of `requestTimeLimit`
 * (cosmos_request_time_limit.test.ts), which is probed here with a stepping clock too; the
 * change-stream rules need a replica set and are switched one by one in cosmos_change_streams.test.ts.
 * Also: the transaction and index-depth rules in mongodb mode, and getLastRequestStatistics after
 * every kind of command.
 */
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startHarness, withClockStep, type Harness } from './harness.js';
import type { CosmosRule } from '../../src/index.js';

/** What a probe sees: the Cosmos DB answer (`cosmos`) or mongod's (`mongod`). */
type Outcome = 'cosmos' | 'mongod';

async function fresh(h: Harness, name: string, docs: Document[] = []): Promise<void> {
  await h.db.collection(name).drop().catch(() => undefined);
  if (docs.length > 0) await h.db.collection(name).insertMany(docs);
}

/** Runs `fn`: the error's code when it fails, 'ok' when it succeeds. */
async function codeOf(fn: () => Promise<unknown>): Promise<number | 'ok'> {
  try {
    await fn();
    return 'ok';
  } catch (err) {
    return (err as { code: number }).code;
  }
}

/** One probe per rule (transactionLimits and the change-stream rules aside): what it answers under Cosmos DB and under mongod. */
const PROBES: Record<Exclude<CosmosRule, 'transactionLimits' | `changeStream${string}`>, { run: (h: Harness) => Promise<unknown>; cosmos: number | 'ok' | string; mongod: number | 'ok' | string }> = {
  indexCompoundFields: { run: (h) => h.db.collection('ik').createIndex({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1, i: 1 }), cosmos: 67, mongod: 'ok' },
  documentSizeLimit: { run: (h) => h.db.collection('size').insertOne({ s: 'x'.repeat(2 * 1024 * 1024) }), cosmos: 10334, mongod: 'ok' },
  expressionOperators: { run: (h) => h.db.collection('p').aggregate([{ $addFields: { k: { $meta: 'indexKey' } } }]).toArray(), cosmos: 115, mongod: 'ok' },
  ignoreWriteConcern: { run: (h) => h.db.command({ insert: 'wc', documents: [{}], writeConcern: { w: -1 } }), cosmos: 'ok', mongod: 9 },
  indexKinds: { run: (h) => h.db.collection('ik').createIndex({ a: 1 }, { sparse: true }), cosmos: 115, mongod: 'ok' },
  indexPathDepth: { run: (h) => h.db.collection('id').createIndex({ 'a.b.c.d.e.f.g': 1 }), cosmos: 67, mongod: 'ok' },
  lookupPipeline: { run: (h) => h.db.collection('p').aggregate([{ $lookup: { from: 'p', pipeline: [], as: 'j' } }]).toArray(), cosmos: 115, mongod: 'ok' },
  queryOperators: { run: (h) => h.db.collection('p').find({ a: { $bitsAllSet: 1 } }).toArray(), cosmos: 115, mongod: 'ok' },
  replyTypes: { run: async (h) => (await h.db.command({ createIndexes: 'rt', indexes: [{ key: { r: 1 }, name: 'r_1' }] }))._t ?? 'none', cosmos: 'CreateIndexesResponse', mongod: 'none' },
  requestTimeLimit: { run: (h) => withClockStep(h, 10_000, () => h.db.collection('p').find({}).toArray()), cosmos: 50, mongod: 'ok' },
  sortNeedsIndex: { run: (h) => h.db.collection('p').find({}).sort({ a: 1 }).toArray(), cosmos: 2, mongod: 'ok' },
  uniqueIndexOnEmpty: { run: (h) => h.db.collection('p').createIndex({ a: 1 }, { unique: true }), cosmos: 67, mongod: 'ok' },
  unsupportedCommands: { run: (h) => h.db.command({ dbHash: 1 }), cosmos: 115, mongod: 'ok' },
  unsupportedStages: { run: (h) => h.db.collection('p').aggregate([{ $bucketAuto: { groupBy: '$a', buckets: 1 } }]).toArray(), cosmos: 40324, mongod: 'ok' },
};
const PROBED = Object.keys(PROBES) as Array<keyof typeof PROBES>;

/** The probe's answer on `h`: its error code, 'ok', or (replyTypes) the `_t` it read. */
async function probe(h: Harness, rule: keyof typeof PROBES): Promise<number | 'ok' | string> {
  const p = PROBES[rule];
  await fresh(h, 'p', [{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
  await fresh(h, 'rt');
  await fresh(h, 'ik');
  await fresh(h, 'id');
  if (rule === 'replyTypes') return (await p.run(h)) as string;
  return codeOf(() => p.run(h));
}

function expected(rule: keyof typeof PROBES, outcome: Outcome): number | 'ok' | string {
  return PROBES[rule][outcome];
}

let mongodb: Harness;
beforeAll(async () => {
  mongodb = await startHarness({ compat: 'mongodb' });
});
afterAll(async () => {
  await mongodb.close();
});

describe('each rule switched off lifts exactly that rule', () => {
  test('with every rule on, each probe answers as Cosmos DB; in mongodb mode, as mongod', async () => {
    const cosmos = await startHarness({ compat: 'cosmos' });
    try {
      for (const rule of PROBED) expect([rule, await probe(cosmos, rule)]).toEqual([rule, expected(rule, 'cosmos')]);
    } finally {
      await cosmos.close();
    }
    for (const rule of PROBED) expect([rule, await probe(mongodb, rule)]).toEqual([rule, expected(rule, 'mongod')]);
  });

  test.each(PROBED)('%s: false', async (off) => {
    const h = await startHarness({ compat: 'cosmos', cosmos: { rules: { [off]: false } } });
    try {
      for (const rule of PROBED) expect([rule, await probe(h, rule)]).toEqual([rule, expected(rule, rule === off ? 'mongod' : 'cosmos')]);
    } finally {
      await h.close();
    }
  });
});

describe('mongodb mode answers as mongod where Cosmos DB has limits', () => {
  test('a transaction over two collections, and past 5 s, commits', async () => {
    const h = await startHarness({ compat: 'mongodb', replSet: 'rs0', clock: 'manual' });
    try {
      await h.db.collection('a').insertOne({ _id: 0 });
      await h.db.collection('b').insertOne({ _id: 0 });
      const session = h.client.startSession();
      session.startTransaction();
      await h.db.collection('a').insertOne({ _id: 1 }, { session });
      h.server.clock.advance(6_000);
      await h.db.collection('b').insertOne({ _id: 1 }, { session });
      await session.commitTransaction();
      await session.endSession();
      expect([await h.db.collection('a').countDocuments(), await h.db.collection('b').countDocuments()]).toEqual([2, 2]);
    } finally {
      await h.close();
    }
  });

  test('an index path of 7 levels is built, and so is 8', async () => {
    await fresh(mongodb, 'deep');
    expect(await mongodb.db.collection('deep').createIndex({ 'a.b.c.d.e.f.g': 1 })).toBe('a.b.c.d.e.f.g_1');
    expect(await mongodb.db.collection('deep').createIndex({ 'a.b.c.d.e.f.g.h': 1 })).toBe('a.b.c.d.e.f.g.h_1');
  });
});

describe('getLastRequestStatistics after every kind of command', () => {
  let h: Harness;
  beforeAll(async () => {
    // One pooled connection: the statistics are about the connection's previous request.
    h = await startHarness({ compat: 'cosmos' }, { maxPoolSize: 1 });
  });
  afterAll(async () => {
    await h.close();
  });

  /** Each kind, and its charge class: data requests cost at least 1 RU, metadata ones 0 (docs/cosmos_request_units.md). */
  const KINDS: ReadonlyArray<readonly [string, (db: Harness['db']) => Promise<unknown>]> = [
    ['insert', (db) => db.collection('s').insertOne({ _id: 1, a: 1 })],
    ['find', (db) => db.collection('s').find({}).toArray()],
    ['update', (db) => db.collection('s').updateOne({ _id: 1 }, { $set: { a: 2 } })],
    ['aggregate', (db) => db.collection('s').aggregate([{ $match: {} }]).toArray()],
    ['count', (db) => db.command({ count: 's' })],
    ['distinct', (db) => db.collection('s').distinct('a')],
    ['findAndModify', (db) => db.collection('s').findOneAndUpdate({ _id: 1 }, { $set: { a: 3 } })],
    ['delete', (db) => db.collection('s').deleteOne({ _id: 1 })],
    ['createIndexes', (db) => db.collection('s').createIndex({ a: 1 })],
    ['listIndexes', (db) => db.collection('s').listIndexes().toArray()],
    ['dropIndexes', (db) => db.collection('s').dropIndex('a_1')],
    ['create', (db) => db.createCollection('s2')],
    ['listCollections', (db) => db.listCollections().toArray()],
    ['drop', (db) => db.collection('s2').drop()],
    ['ping', (db) => db.command({ ping: 1 })],
  ];

  test.each(KINDS)('%s', async (name, run) => {
    await run(h.db);
    const stats = await h.db.command({ getLastRequestStatistics: 1 });
    expect(Object.keys(stats)).toEqual(['_t', 'CommandName', 'RequestCharge', 'RequestDurationInMilliSeconds', 'ActivityId', 'ok']);
    expect(stats._t).toBe('GetRequestStatisticsResponse');
    expect(stats.CommandName).toBe(name);
    expect(typeof stats.RequestCharge).toBe('number');
    const data = ['insert', 'find', 'update', 'aggregate', 'count', 'distinct', 'findAndModify', 'delete'].includes(name);
    if (data) expect(stats.RequestCharge).toBeGreaterThanOrEqual(1);
    else expect(stats.RequestCharge).toBe(0);
  });

  test('after a failed command, it names that command', async () => {
    const err = await errorOf(() => h.db.collection('s').find({ $where: 'true' }).toArray());
    expect(err.code).toBe(115);
    expect((await h.db.command({ getLastRequestStatistics: 1 })).CommandName).toBe('find');
  });

  test('mongodb mode has no such command: 59', async () => {
    const err = await errorOf(() => mongodb.db.command({ getLastRequestStatistics: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([59, 'CommandNotFound', "no such command: 'getLastRequestStatistics'"]);
  });
});
