/**
 * The retry test of Cosmos DB mode: a client with the usual 16500 loop (read RetryAfterMs from
 * the error, wait that long, retry what was not done) loads 10,000 documents at 500 RU/s. Nothing
 * is lost, every wait it was told was enough for its retry to make progress and the waits add up
 * to what the budget needed, and the charges getLastRequestStatistics reported add up to the
 * model's figure. The waits are on the test clock, so the load takes no real minutes.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

const DOCUMENTS = 10_000;
const RU_PER_SECOND = 500;
const BATCH = 100;
/** The model's charge of one small document inserted into a collection with `_id` only. */
const INSERT_RU = 5.5;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ compat: 'cosmos', clock: 'manual', cosmos: { ruPerSecond: RU_PER_SECOND } }, { maxPoolSize: 1 });
});
afterAll(async () => {
  await h.close();
});

/** RetryAfterMs out of Cosmos's message. */
function retryAfterMs(message: string): number {
  const match = /^Error=16500, RetryAfterMs=(\d+), /.exec(message);
  if (match === null) throw new Error(`not a Cosmos 16500: ${message}`);
  return Number(match[1]);
}

/** Runs `fn` until it does not answer 16500, waiting (on the test clock) what each 16500 says. */
async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof MongoServerError) || err.code !== 16500) throw err;
      h.server.clock.advance(retryAfterMs(err.message));
    }
  }
}

test('a 16500 retry loop loads 10,000 documents at 500 RU/s with nothing lost', async () => {
  const c = h.db.collection<{ _id: number; v: number }>('load');
  let pending = Array.from({ length: DOCUMENTS }, (_, i) => ({ _id: i, v: i * 2 }));
  const waits: number[] = [];
  const insertedPerRequest: number[] = [];
  let charged = 0;
  while (pending.length > 0) {
    const batch = pending.slice(0, BATCH);
    let notDone: typeof batch = [];
    let inserted: number;
    try {
      inserted = (await c.insertMany(batch, { ordered: false })).insertedCount;
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      const errors = (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]).map((e) => ({ index: e.index, code: e.code, errmsg: e.errmsg ?? '' }));
      expect(errors.every((e) => e.code === 16500)).toBe(true);
      inserted = err.result.insertedCount;
      const failed = new Set(errors.map((e) => e.index));
      notDone = batch.filter((_, i) => failed.has(i));
      waits.push(retryAfterMs(errors[0]!.errmsg));
    }
    insertedPerRequest.push(inserted);
    charged += (await h.db.command({ getLastRequestStatistics: 1 })).RequestCharge as number;
    pending = [...notDone, ...pending.slice(BATCH)];
    if (notDone.length > 0) h.server.clock.advance(waits[waits.length - 1]!); // the wait it was told
  }
  // Nothing lost, nothing twice (read back through the same loop: a scan of 10,000 costs 1,000 RU).
  expect(await withRetry(() => c.countDocuments())).toBe(DOCUMENTS);
  const [sums] = await withRetry(() => c.aggregate<{ n: number; ids: number; v: number }>([{ $group: { _id: null, n: { $sum: 1 }, ids: { $sum: '$_id' }, v: { $sum: '$v' } } }]).toArray());
  expect(sums).toMatchObject({ n: DOCUMENTS, ids: (DOCUMENTS * (DOCUMENTS - 1)) / 2, v: DOCUMENTS * (DOCUMENTS - 1) });
  // It was throttled (a full bucket pays for 91 documents: over 100 times for 10,000), and every
  // retry after the wait it was told made progress.
  expect(waits.length).toBeGreaterThan(100);
  expect(insertedPerRequest.length).toBe(waits.length + 1);
  expect(insertedPerRequest.every((n) => n > 0)).toBe(true);
  // The charges reported add up: 5.5 RU per document, each charged once.
  expect(charged).toBe(DOCUMENTS * INSERT_RU);
  // The waits paid for all but the first full bucket, within one document's charge.
  const refilledRu = (waits.reduce((a, b) => a + b, 0) * RU_PER_SECOND) / 1000;
  expect(refilledRu).toBeGreaterThanOrEqual(DOCUMENTS * INSERT_RU - RU_PER_SECOND - INSERT_RU);
  expect(refilledRu).toBeLessThanOrEqual(DOCUMENTS * INSERT_RU - RU_PER_SECOND + INSERT_RU);
});
