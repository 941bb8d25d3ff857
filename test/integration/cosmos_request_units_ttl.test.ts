/**
 * Cosmos DB mode: TTL deletions use only spare request units (the seed documents: "if the
 * container does not have enough RUs to perform the deletion, the deletion of data is delayed";
 * "deletion of expired items uses RUs not consumed by user requests"). On the test clock: while
 * the budget is in debt the reaper deletes nothing, expired documents stay invisible meanwhile,
 * and each deletion is charged to the same budget as the clients' requests.
 */
import { afterEach, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function deletedDocuments(t: Harness): Promise<number> {
  const status = await t.client.db('admin').command({ serverStatus: 1 });
  return Number(status.metrics.ttl.deletedDocuments);
}

/** Runs one reaper pass; what it deleted. */
async function reaped(t: Harness): Promise<number> {
  return Number((await t.server.runTtlPass()).deleted);
}

async function expiredSetup(cosmos: { ruPerSecond?: number }): Promise<Harness> {
  h = await startHarness({ compat: 'cosmos', clock: 'manual', parameters: { ttlMonitorEnabled: false }, cosmos }, { maxPoolSize: 1 });
  const c = h.db.collection('ttl');
  await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 10 });
  await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i }))); // 60 RU (6 each: _id and _ts)
  h.server.clock.advance(10_000); // all expired; the bucket is full again
  return h;
}

test('the reaper waits while the budget is in debt, and deletes with the spare units', async () => {
  const t = await expiredSetup({ ruPerSecond: 100 });
  // The budget covers 19 of 20 inserts (104.5 RU): 4.5 RU of debt.
  const bulk = await t.db
    .collection('other')
    .insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i })))
    .catch((e: { result: { insertedCount: number } }) => e);
  expect((bulk as { insertedCount?: number; result?: { insertedCount: number } }).result?.insertedCount).toBe(19);
  expect(await reaped(t)).toBe(0);
  expect(await deletedDocuments(t)).toBe(0);
  t.server.clock.advance(45); // the debt is paid: the bucket is at 0
  // Invisible before the reaper deleted them (1 RU: 1 RU of debt again).
  expect(await t.db.collection('ttl').countDocuments()).toBe(0);
  expect(await t.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ RequestCharge: 1 });
  expect(await reaped(t)).toBe(0);
  // 12 RU spare: the reaper takes 3 deletions (of a 1 KB document with `_id` only, 5.5 RU,
  // expected), each charged 6 RU (its `_ts` index is maintained too).
  t.server.clock.advance(130);
  expect(await reaped(t)).toBe(3);
  expect(await deletedDocuments(t)).toBe(3);
  // The deletions spent the clients' budget: 6 RU of debt, 60 ms at 100 RU/s.
  const err = await t.db
    .collection('ttl')
    .findOne({})
    .catch((e: { errmsg: string }) => e);
  expect((err as { errmsg: string }).errmsg).toMatch(/^Error=16500, RetryAfterMs=60, /);
  t.server.clock.advance(1000);
  expect(await reaped(t)).toBe(7);
  expect(await deletedDocuments(t)).toBe(10);
  expect(await t.db.collection('ttl').countDocuments()).toBe(0);
});

test('TTL deletions are not charged to any request', async () => {
  const t = await expiredSetup({ ruPerSecond: 100 });
  await t.db.command({ ping: 1 });
  expect(await reaped(t)).toBe(10);
  expect(await t.db.command({ getLastRequestStatistics: 1 })).toMatchObject({ CommandName: 'ping', RequestCharge: 0 });
});

test('without a budget the reaper deletes everything due in one pass', async () => {
  const t = await expiredSetup({});
  await t.db.collection('other').insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: i })));
  expect(await reaped(t)).toBe(10);
  expect(await deletedDocuments(t)).toBe(10);
});
