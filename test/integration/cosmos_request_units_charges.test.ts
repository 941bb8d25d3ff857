/**
 * Cosmos DB mode's request charges (docs/cosmos_request_units.md), as getLastRequestStatistics
 * reports them for the previous request on the connection: the exact figures of the model for
 * each kind of operation, the reply's shape, and mongodb mode answering as mongod.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Double } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { MayflyOptionError, MayflyServer } from '../../src/index.js';

/** One pooled connection: getLastRequestStatistics is about the connection's previous request. */
const ONE_CONNECTION = { maxPoolSize: 1 };

describe('request charges (unlimited throughput)', () => {
  let h: Harness;
  const charge = async (): Promise<number> => {
    const stats = await h.db.command({ getLastRequestStatistics: 1 });
    return stats.RequestCharge as number;
  };
  const last = () => h.db.command({ getLastRequestStatistics: 1 }, { raw: false, promoteValues: false });

  beforeAll(async () => {
    h = await startHarness({ compat: 'cosmos', clock: 'manual' }, ONE_CONNECTION);
  });
  afterAll(async () => {
    await h.close();
  });

  test('the reply: _t, CommandName, RequestCharge and RequestDurationInMilliSeconds as doubles, ActivityId', async () => {
    await h.db.collection('shape').insertOne({ _id: 1 });
    const stats = await last();
    expect(Object.keys(stats)).toEqual(['_t', 'CommandName', 'RequestCharge', 'RequestDurationInMilliSeconds', 'ActivityId', 'ok']);
    expect(stats._t).toBe('GetRequestStatisticsResponse');
    expect(stats.CommandName).toBe('insert');
    expect(stats.RequestCharge).toEqual(new Double(5.5));
    expect(stats.RequestDurationInMilliSeconds).toBeInstanceOf(Double);
    expect((stats.RequestDurationInMilliSeconds as Double).value).toBeGreaterThanOrEqual(0);
    expect(stats.ActivityId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  test('getLastRequestStatistics reports the request before it, never itself', async () => {
    await h.db.collection('shape').findOne({ _id: 1 });
    const first = await h.db.command({ getLastRequestStatistics: 1 });
    const second = await h.db.command({ getLastRequestStatistics: 1 });
    expect(first.CommandName).toBe('find');
    expect(second).toEqual(first);
  });

  test('inserts: 5 RU per started KB + 0.5 RU per index maintained', async () => {
    const c = h.db.collection('inserts');
    await c.insertOne({ _id: 1, s: 'x'.repeat(900) });
    expect(await charge()).toBe(5.5);
    await c.insertOne({ _id: 2, s: 'x'.repeat(3000) });
    expect(await charge()).toBe(15.5);
    await c.createIndex({ s: 1 });
    expect(await charge()).toBe(0);
    await c.insertOne({ _id: 3, s: 'y' });
    expect(await charge()).toBe(6);
    await c.insertMany([{ _id: 4 }, { _id: 5 }, { _id: 6 }, { _id: 7 }]);
    expect(await charge()).toBe(24);
  });

  test('reads: 1 RU per started KB returned, 0.1 RU per other document examined, at least 1 RU', async () => {
    const c = h.db.collection('reads');
    await c.insertMany([
      { _id: 1, s: 'a'.repeat(100) },
      { _id: 2, s: 'b'.repeat(2500) },
      ...Array.from({ length: 8 }, (_, i) => ({ _id: 10 + i, k: i })),
    ]);
    await c.findOne({ _id: 1 });
    expect(await charge()).toBe(1);
    await c.findOne({ _id: 2 });
    expect(await charge()).toBe(3);
    await c.findOne({ _id: 99 });
    expect(await charge()).toBe(1);
    await c.find({ k: { $gte: 6 } }).toArray();
    expect(await charge()).toBe(2.8); // 2 returned (1 KB each), 8 more examined
    await c.find({}).toArray();
    expect(await charge()).toBe(12); // 9 × 1 KB + 3 KB
    await c.find({ missing: true }).toArray();
    expect(await charge()).toBe(1);
  });

  test('a cursor pays batch by batch: find, then getMore', async () => {
    const c = h.db.collection('batches');
    await c.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i })));
    const cursor = c.find({}, { batchSize: 2 });
    await cursor.next();
    // 2 returned, and the third examined as the batch ended (the scan reads one ahead).
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'find', RequestCharge: 2.1 });
    await cursor.next();
    await cursor.next();
    // 2 returned, the one read ahead among them: nothing else examined.
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'getMore', RequestCharge: 2 });
    await cursor.close();
  });

  test('updates, replacements and deletes: what they examined plus what they wrote', async () => {
    const c = h.db.collection('writes');
    await c.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }, { _id: 3, a: 3 }]);
    await c.updateOne({ _id: 1 }, { $set: { a: 10 } });
    expect(await charge()).toBe(5.6);
    await c.updateOne({ a: 3 }, { $set: { b: 'x'.repeat(1500) } });
    expect(await charge()).toBe(10.8);
    await c.replaceOne({ _id: 2 }, { z: 1 });
    expect(await charge()).toBe(5.6);
    await c.updateMany({}, { $inc: { n: 1 } });
    expect(await charge()).toBe(21.8);
    await c.updateOne({ _id: 1 }, { $set: { a: 10 } }).then(() => c.updateOne({ _id: 1 }, { $set: { n: 1 } }));
    expect(await charge()).toBe(1); // examined 1, nothing changed, nothing written: the 1 RU floor
    await c.deleteOne({ _id: 3 });
    expect(await charge()).toBe(10.6);
    await c.deleteMany({});
    expect(await charge()).toBe(11.2);
  });

  test('findAndModify pays for the document it returns and the one it writes', async () => {
    const c = h.db.collection('fam');
    await c.insertOne({ _id: 1, n: 0 });
    await c.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { returnDocument: 'after' });
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'findAndModify', RequestCharge: 6.5 });
  });

  test('aggregate, count and distinct pay as queries', async () => {
    const c = h.db.collection('agg');
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, g: i % 2 })));
    await c.aggregate([{ $group: { _id: '$g', n: { $sum: 1 } } }]).toArray();
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'aggregate', RequestCharge: 2.8 });
    await h.db.command({ count: 'agg', query: { g: 1 } });
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'count', RequestCharge: 1 });
    await c.distinct('g');
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'distinct', RequestCharge: 1 });
  });

  test('commands that touch no document are free', async () => {
    await h.db.command({ ping: 1 });
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'ping', RequestCharge: 0 });
    await h.db.command({ listCollections: 1 });
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'listCollections', RequestCharge: 0 });
  });

  test('a failed request is recorded, and pays the 1 RU floor', async () => {
    const err = await errorOf(() => h.db.collection('reads').find({ $bad: 1 }).toArray());
    expect(err.code).toBe(2);
    expect(await h.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'find', RequestCharge: 1 });
  });

  test('each connection has its own last request', async () => {
    const other = await startHarness({ compat: 'cosmos' }, ONE_CONNECTION);
    try {
      await other.db.collection('c').insertOne({ _id: 1 });
      await other.db.command({ ping: 1 });
      expect(await other.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'ping' });
      await other.db.collection('c').findOne({ _id: 1 });
      expect(await other.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'find', RequestCharge: 1 });
    } finally {
      await other.close();
    }
  });
});

describe('mongodb mode answers as mongod', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ compat: 'mongodb' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('getLastRequestStatistics is 59 CommandNotFound', async () => {
    const err = await errorOf(() => h.db.command({ getLastRequestStatistics: 1 }));
    expect(err).toMatchObject({ code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'getLastRequestStatistics'" });
  });

  test('the cosmosThrottle fail point does not exist (266)', async () => {
    const err = await errorOf(() => h.client.db('admin').command({ configureFailPoint: 'cosmosThrottle', mode: 'alwaysOn', data: { commands: ['find'], retryAfterMs: 5 } }));
    expect(err).toMatchObject({ code: 266, codeName: 'FailPointSetFailed', errmsg: 'cosmosThrottle not found' });
  });
});

describe('MayflyServer.create() checks the cosmos option', () => {
  test.each([
    [{ compat: 'mongodb', cosmos: { ruPerSecond: 400 } }, "MayflyServer.create(): option 'cosmos' needs compat: 'cosmos' (the default compat is 'mongodb', a faithful mongod)"],
    [{ cosmos: { ruPerSecond: 400 } }, "MayflyServer.create(): option 'cosmos' needs compat: 'cosmos' (the default compat is 'mongodb', a faithful mongod)"],
    [{ compat: 'cosmos', cosmos: 400 }, "MayflyServer.create(): option 'cosmos' must be an object such as { serverVersion: '7.0', capabilities: ['EnableTtlOnCustomPath'], rules: { sortNeedsIndex: false } }, not 400"],
    [{ compat: 'cosmos', cosmos: { ruPerSec: 400 } }, "MayflyServer.create(): unknown option 'cosmos.ruPerSec'; the Cosmos DB options are serverVersion, capabilities, rules, ruPerSecond, serverSideRetry"],
    [
      { compat: 'cosmos', cosmos: { ruPerSecond: 0 } },
      "MayflyServer.create(): option 'cosmos.ruPerSecond' must be a whole number of request units per second from 1 to 1000000000 (leave it out for unlimited), not 0",
    ],
    [
      { compat: 'cosmos', cosmos: { ruPerSecond: 2.5 } },
      "MayflyServer.create(): option 'cosmos.ruPerSecond' must be a whole number of request units per second from 1 to 1000000000 (leave it out for unlimited), not 2.5",
    ],
    [{ compat: 'cosmos', cosmos: { serverSideRetry: 1 } }, "MayflyServer.create(): option 'cosmos.serverSideRetry' must be true or false, not 1"],
  ])('%j', async (options, message) => {
    const err = await MayflyServer.create(options as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MayflyOptionError);
    expect((err as Error).message).toBe(message);
  });
});
