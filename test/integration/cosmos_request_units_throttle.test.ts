/**
 * Cosmos DB mode's throttling on the test clock (docs/cosmos_request_units.md): the token bucket
 * of `ruPerSecond`, 16500 with Cosmos's text and the wait it names, the bulk form of writes
 * (the statements the budget covers applied, the others writeErrors 16500), server-side retry
 * (waits without blocking other connections; 50 ExceededTimeLimit after 60 s), and the
 * cosmosThrottle fail point.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

const ONE_CONNECTION = { maxPoolSize: 1 };

/** Cosmos's 16500 errmsg for a wait and an activity id. */
function cosmos429(retryAfterMs: number, activityId: string): string {
  return (
    `Error=16500, RetryAfterMs=${retryAfterMs}, Details='Response status code does not indicate success: TooManyRequests (429); ` +
    `Substatus: 3200; ActivityId: ${activityId}; Reason: (\r\nErrors : [\r\n  "Request rate is large. More Request Units may be needed, ` +
    `so no changes were made. Please retry this request later. Learn more: http://aka.ms/cosmosdb-error-429"\r\n]\r\n);`
  );
}

let h: Harness | undefined;
const others: MongoClient[] = [];
afterEach(async () => {
  for (const c of others.splice(0)) await c.close();
  await h?.close();
  h = undefined;
});

async function start(cosmos: { ruPerSecond?: number; serverSideRetry?: boolean }): Promise<Harness> {
  h = await startHarness({ compat: 'cosmos', clock: 'manual', cosmos }, ONE_CONNECTION);
  return h;
}

/** Another client of the same server (its own connections). */
async function otherClient(harness: Harness): Promise<MongoClient> {
  const client = new MongoClient(harness.server.getUri(), { maxPoolSize: 1 });
  others.push(client);
  await client.connect();
  return client;
}

async function lastStats(harness: Harness) {
  return harness.db.command({ getLastRequestStatistics: 1 });
}

describe('16500 when the budget is in debt', () => {
  test('a read arriving in debt is refused with the wait until the debt is paid', async () => {
    const t = await start({ ruPerSecond: 10 });
    const c = t.db.collection('c');
    await c.insertOne({ _id: 1 }); // 5.5 RU: 4.5 left
    await c.insertOne({ _id: 2 }); // 5.5 RU: 1 RU of debt
    const err = await errorOf(() => c.findOne({ _id: 1 }));
    const stats = await lastStats(t);
    expect(stats).toMatchObject({ CommandName: 'find', RequestCharge: 0 });
    expect(err).toMatchObject({ code: 16500, codeName: 'RequestRateTooLarge', errmsg: cosmos429(100, stats.ActivityId as string) });
    t.server.clock.advance(99);
    const again = await errorOf(() => c.findOne({ _id: 1 }));
    expect(again.errmsg).toBe(cosmos429(1, (await lastStats(t)).ActivityId as string));
    t.server.clock.advance(1);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1 });
    expect(await lastStats(t)).toMatchObject({ CommandName: 'find', RequestCharge: 1 });
  });

  test('commands that read and write no document are never throttled', async () => {
    const t = await start({ ruPerSecond: 1 });
    await t.db.collection('c').insertOne({ _id: 1 }); // 4.5 RU of debt
    expect(await t.db.command({ ping: 1 })).toEqual({ ok: 1 });
    expect((await t.db.listCollections().toArray()).map((x) => x.name)).toEqual(['c']);
    expect(await errorOf(() => t.db.collection('c').countDocuments())).toMatchObject({ code: 16500 });
  });

  test('the budget refills at ruPerSecond up to one second of units', async () => {
    const t = await start({ ruPerSecond: 20 });
    const c = t.db.collection('c');
    t.server.clock.advance(3_600_000);
    await c.insertMany(Array.from({ length: 4 }, (_, i) => ({ _id: i }))); // 22 RU of a full bucket of 20
    expect(await lastStats(t)).toMatchObject({ RequestCharge: 22 });
    expect((await errorOf(() => c.findOne({}))).errmsg).toBe(cosmos429(100, (await lastStats(t)).ActivityId as string));
  });
});

describe('the bulk form of writes', () => {
  test('ordered: the statements the budget covers are applied, the first one not done is writeError 16500', async () => {
    const t = await start({ ruPerSecond: 10 });
    const c = t.db.collection('c');
    const err = (await c.insertMany([{ _id: 0 }, { _id: 1 }, { _id: 2 }, { _id: 3 }]).catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    const stats = await lastStats(t);
    expect(stats).toMatchObject({ CommandName: 'insert', RequestCharge: 11 });
    // 1 RU of debt, and the 2 statements not done expect 11 RU, more than the bucket holds: 1 + 10 RU at 10 RU/s.
    const message = cosmos429(1100, stats.ActivityId as string);
    expect(err.result.insertedCount).toBe(2);
    expect(err.writeErrors).toHaveLength(1);
    expect(err.writeErrors).toMatchObject([{ index: 2, code: 16500, errmsg: message }]);
    t.server.clock.advance(1100);
    expect(await c.find({}).toArray()).toEqual([{ _id: 0 }, { _id: 1 }]);
  });

  test('unordered: every statement not done is a writeError 16500', async () => {
    const t = await start({ ruPerSecond: 10 });
    const c = t.db.collection('c');
    const err = (await c.insertMany([{ _id: 0 }, { _id: 1 }, { _id: 2 }, { _id: 3 }], { ordered: false }).catch((e: unknown) => e)) as MongoBulkWriteError;
    const message = cosmos429(1100, (await lastStats(t)).ActivityId as string);
    expect(err.result.insertedCount).toBe(2);
    expect(err.writeErrors).toMatchObject([
      { index: 2, code: 16500, errmsg: message },
      { index: 3, code: 16500, errmsg: message },
    ]);
  });

  test('a write arriving in debt does nothing: its first statement (ordered) is writeError 16500', async () => {
    const t = await start({ ruPerSecond: 10 });
    const c = t.db.collection('c');
    await c.insertMany([{ _id: 0 }, { _id: 1 }]); // 1 RU of debt
    const insert = await errorOf(() => c.insertOne({ _id: 9 }));
    // An insert of a small document expects 5.5 RU: 6.5 RU at 10 RU/s.
    expect(insert).toMatchObject({ code: 16500, errmsg: cosmos429(650, (await lastStats(t)).ActivityId as string) });
    const update = await errorOf(() => c.updateOne({ _id: 0 }, { $set: { a: 1 } }));
    expect(update).toMatchObject({ code: 16500, errmsg: cosmos429(650, (await lastStats(t)).ActivityId as string) });
    const bulk = (await c
      .bulkWrite([{ deleteOne: { filter: { _id: 0 } } }, { deleteOne: { filter: { _id: 1 } } }], { ordered: false })
      .catch((e: unknown) => e)) as MongoBulkWriteError;
    // Two deletes expect 5.5 RU each, more than the bucket holds: 1 + 10 RU at 10 RU/s.
    const message = cosmos429(1100, (await lastStats(t)).ActivityId as string);
    expect(bulk.result.deletedCount).toBe(0);
    expect(bulk.writeErrors).toMatchObject([
      { index: 0, code: 16500, errmsg: message },
      { index: 1, code: 16500, errmsg: message },
    ]);
    t.server.clock.advance(100);
    expect(await c.find({}).toArray()).toEqual([{ _id: 0 }, { _id: 1 }]);
  });

  test('updates and deletes: each statement is expected to write one 1 KB document', async () => {
    const t = await start({ ruPerSecond: 12 });
    const c = t.db.collection('c');
    await c.insertOne({ _id: 0, n: 0 }); // 6.5 RU left
    const err = (await c
      .bulkWrite([
        { updateOne: { filter: { _id: 0 }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 0 }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 0 }, update: { $inc: { n: 1 } } } },
      ])
      .catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(err.result.modifiedCount).toBe(2);
    expect(err.writeErrors).toMatchObject([{ index: 2, code: 16500 }]);
    t.server.clock.advance(10_000);
    expect(await c.findOne({ _id: 0 })).toEqual({ _id: 0, n: 2 });
  });
});

describe('server-side retry', () => {
  test('a request in debt waits for its budget, without blocking other connections', async () => {
    const t = await start({ ruPerSecond: 10, serverSideRetry: true });
    const c = t.db.collection('c');
    // No bulk form with server-side retry: all 20 run, 110 RU, 100 RU of debt: 10 s.
    await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i })));
    expect(await lastStats(t)).toMatchObject({ CommandName: 'insert', RequestCharge: 110 });
    let answered = false;
    const pending = c
      .find({})
      .toArray()
      .then((docs) => {
        answered = true;
        return docs;
      });
    const other = await otherClient(t);
    expect(await other.db(t.db.databaseName).command({ ping: 1 })).toEqual({ ok: 1 });
    t.server.clock.advance(5000);
    expect(await other.db(t.db.databaseName).command({ listCollections: 1, nameOnly: true })).toMatchObject({ ok: 1 });
    expect(answered).toBe(false);
    t.server.clock.advance(5000);
    expect(await pending).toHaveLength(20);
    expect(await lastStats(t)).toMatchObject({ CommandName: 'find', RequestCharge: 20 });
  });

  test('after 60 s of waiting the request answers 50 ExceededTimeLimit, and did not run', async () => {
    const t = await start({ ruPerSecond: 10, serverSideRetry: true });
    const c = t.db.collection('c');
    await c.insertMany(Array.from({ length: 120 }, (_, i) => ({ _id: i }))); // 650 RU of debt: 65 s
    let settled = false;
    const pending = errorOf(() => c.deleteMany({})).finally(() => {
      settled = true;
    });
    const other = await otherClient(t);
    t.server.clock.advance(59_999);
    await other.db('admin').command({ ping: 1 });
    expect(settled).toBe(false);
    t.server.clock.advance(1);
    expect(await pending).toMatchObject({
      code: 50,
      codeName: 'ExceededTimeLimit',
      errmsg: 'Request timed out: server-side retry waited 60000 ms for request units (rate limited, 16500) and gave up; the request was not run.',
    });
    t.server.clock.advance(10_000);
    expect(await c.countDocuments()).toBe(120);
  });
});

describe('the cosmosThrottle fail point', () => {
  const configure = (t: Harness, cmd: Record<string, unknown>) => t.client.db('admin').command({ configureFailPoint: 'cosmosThrottle', ...cmd });

  test('the next N matching requests answer 16500 with the RetryAfterMs it names', async () => {
    const t = await start({});
    const c = t.db.collection('c');
    await c.insertOne({ _id: 1 });
    expect(await configure(t, { mode: { times: 2 }, data: { commands: ['find'], retryAfterMs: 250 } })).toEqual({ count: 0, ok: 1 });
    for (let i = 0; i < 2; i++) {
      const err = await errorOf(() => c.findOne({ _id: 1 }));
      expect(err).toMatchObject({ code: 16500, codeName: 'RequestRateTooLarge', errmsg: cosmos429(250, (await lastStats(t)).ActivityId as string) });
    }
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1 });
    expect(await c.countDocuments()).toBe(1);
    expect(await configure(t, { mode: 'off' })).toEqual({ count: 2, ok: 1 });
  });

  test('a write it matches answers in the bulk form and applies nothing', async () => {
    const t = await start({});
    const c = t.db.collection('c');
    await configure(t, { mode: 'alwaysOn', data: { commands: ['insert'], retryAfterMs: 40 } });
    const unordered = (await c.insertMany([{ _id: 0 }, { _id: 1 }, { _id: 2 }], { ordered: false }).catch((e: unknown) => e)) as MongoBulkWriteError;
    const message = cosmos429(40, (await lastStats(t)).ActivityId as string);
    expect(unordered.result.insertedCount).toBe(0);
    expect(unordered.writeErrors).toMatchObject([0, 1, 2].map((index) => ({ index, code: 16500, errmsg: message })));
    const ordered = (await c.insertMany([{ _id: 0 }, { _id: 1 }]).catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(ordered.writeErrors).toMatchObject([{ index: 0, code: 16500 }]);
    await configure(t, { mode: 'off' });
    expect(await c.countDocuments()).toBe(0);
  });

  test('namespace narrows it to one collection', async () => {
    const t = await start({});
    await configure(t, { mode: 'alwaysOn', data: { commands: ['find', 'insert'], retryAfterMs: 5, namespace: `${t.db.databaseName}.a` } });
    expect(await errorOf(() => t.db.collection('a').findOne({}))).toMatchObject({ code: 16500 });
    await t.db.collection('b').insertOne({ _id: 1 });
    expect(await t.db.collection('b').findOne({})).toEqual({ _id: 1 });
    await configure(t, { mode: 'off' });
  });

  test('a retry loop proves itself against it', async () => {
    const t = await start({ ruPerSecond: 1000 });
    const c = t.db.collection('c');
    await configure(t, { mode: { times: 3 }, data: { commands: ['insert'], retryAfterMs: 30 } });
    const waits: number[] = [];
    for (;;) {
      try {
        await c.insertOne({ _id: 'x' });
        break;
      } catch (err) {
        if (!(err instanceof MongoServerError) || err.code !== 16500) throw err;
        const wait = Number(/RetryAfterMs=(\d+)/.exec(err.message)?.[1]);
        waits.push(wait);
        t.server.clock.advance(wait);
      }
    }
    expect(waits).toEqual([30, 30, 30]);
    expect(await c.find({}).toArray()).toEqual([{ _id: 'x' }]);
  });

  test('with server-side retry on, it still answers 16500 (it injects what the client sees)', async () => {
    const t = await start({ ruPerSecond: 100, serverSideRetry: true });
    await configure(t, { mode: { times: 1 }, data: { commands: ['find'], retryAfterMs: 7 } });
    expect((await errorOf(() => t.db.collection('c').findOne({}))).errmsg).toBe(cosmos429(7, (await lastStats(t)).ActivityId as string));
    expect(await t.db.collection('c').findOne({})).toBeNull();
  });

  test('an open cursor is throttled at getMore, and goes on after the wait', async () => {
    const t = await start({ ruPerSecond: 100 });
    await t.db.collection('c').insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i })));
    const first = await t.db.command({ find: 'c', batchSize: 2 }, { promoteLongs: false });
    const id = first.cursor.id;
    await configure(t, { mode: { times: 1 }, data: { commands: ['getMore'], retryAfterMs: 20 } });
    const err = await errorOf(() => t.db.command({ getMore: id, collection: 'c', batchSize: 2 }));
    expect(err).toMatchObject({ code: 16500, errmsg: cosmos429(20, (await lastStats(t)).ActivityId as string) });
    expect(await lastStats(t)).toMatchObject({ CommandName: 'getMore', RequestCharge: 0 });
    t.server.clock.advance(20);
    const next = await t.db.command({ getMore: id, collection: 'c', batchSize: 2 });
    expect(next.cursor.nextBatch).toEqual([{ _id: 2 }, { _id: 3 }]);
    await t.db.command({ killCursors: 'c', cursors: [id] });
  });

  test('its data is checked when it is configured', async () => {
    const t = await start({});
    expect(await errorOf(() => configure(t, { mode: 'alwaysOn', data: { commands: ['find'] } }))).toMatchObject({
      code: 2,
      codeName: 'BadValue',
      errmsg: "cosmosThrottle: 'data.retryAfterMs' must be a whole number of milliseconds from 0 to 2147483647",
    });
    expect(await errorOf(() => configure(t, { mode: { times: 1 }, data: { retryAfterMs: 5 } }))).toMatchObject({
      code: 2,
      errmsg: "cosmosThrottle: 'data.commands' must be a non-empty array of command names, such as ['insert', 'find']",
    });
    expect(await errorOf(() => t.db.command({ configureFailPoint: 'cosmosThrottle', mode: 'off' }))).toMatchObject({
      code: 13,
      errmsg: 'configureFailPoint may only be run against the admin database.',
    });
  });
});
