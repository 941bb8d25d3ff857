/**
 * Cosmos DB's 60-second request limit (rule `requestTimeLimit`, src/cosmos/rules/request_time_limit.ts)
 * on the manual clock: each reading of the server clock is made to take a step of (manual) time
 * while a command runs, so a command that reads a few documents "runs" for minutes without
 * sleeping. Past 60 s a request answers the error-codes page's 50 ExceededTimeLimit; each getMore
 * is a request of its own; the rule off, and mongodb mode, run to the end.
 */
import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, seed, startHarness, withClockStep, type Harness } from './harness.js';

const TIMEOUT = 'The request has exceeded the timeout of 60 seconds of execution.';

let cosmos: Harness;
let mongodb: Harness;
let off: Harness;
beforeAll(async () => {
  cosmos = await startHarness({ compat: 'cosmos', clock: 'manual' });
  mongodb = await startHarness({ compat: 'mongodb', clock: 'manual' });
  off = await startHarness({ compat: 'cosmos', clock: 'manual', cosmos: { rules: { requestTimeLimit: false } } });
  for (const h of [cosmos, mongodb, off]) await seed(h.db, 'c', Array.from({ length: 10 }, (_, i) => ({ _id: i, g: i % 3 })));
});
afterAll(async () => {
  for (const h of [cosmos, mongodb, off]) await h.close();
});

function command(h: Harness, doc: Document): Promise<Document> {
  return h.db.command(doc, { promoteLongs: false });
}

const SLOW: ReadonlyArray<readonly [string, Document]> = [
  ['find', { find: 'c', filter: {} }],
  ['aggregate', { aggregate: 'c', pipeline: [{ $match: {} }], cursor: {} }],
  ['aggregate with a blocking $group', { aggregate: 'c', pipeline: [{ $group: { _id: '$g', n: { $sum: 1 } } }], cursor: {} }],
  ['count', { count: 'c', query: {} }],
  ['distinct', { distinct: 'c', key: 'g' }],
];

describe('requestTimeLimit', () => {
  test.each(SLOW)('%s past 60 s of server time answers 50 ExceededTimeLimit with the page text', async (_name, body) => {
    const err = await withClockStep(cosmos, 10_000, () => errorOf(() => command(cosmos, body)));
    expect([err.code, err.codeName, err.errmsg]).toEqual([50, 'ExceededTimeLimit', TIMEOUT]);
  });

  test.each(SLOW)('%s within 60 s answers in full', async (_name, body) => {
    const reply = await withClockStep(cosmos, 100, () => command(cosmos, body));
    expect(reply.ok).toBe(1);
  });

  test('each getMore has its own 60 s: idle time and earlier batches do not count', async () => {
    const first = await withClockStep(cosmos, 5_000, () => command(cosmos, { find: 'c', batchSize: 2 }));
    expect(first.cursor.firstBatch.map((d: Document) => d._id)).toEqual([0, 1]);
    cosmos.server.clock.advance(600_000); // ten idle minutes
    const more = await withClockStep(cosmos, 5_000, () => command(cosmos, { getMore: first.cursor.id, collection: 'c', batchSize: 2 }));
    expect(more.cursor.nextBatch.map((d: Document) => d._id)).toEqual([2, 3]);
    const err = await withClockStep(cosmos, 10_000, () => errorOf(() => command(cosmos, { getMore: first.cursor.id, collection: 'c' })));
    expect([err.code, err.codeName, err.errmsg]).toEqual([50, 'ExceededTimeLimit', TIMEOUT]);
  });

  test('an aggregate getMore past 60 s answers the same, without the executor prefix', async () => {
    const first = await command(cosmos, { aggregate: 'c', pipeline: [], cursor: { batchSize: 1 } });
    const err = await withClockStep(cosmos, 10_000, () => errorOf(() => command(cosmos, { getMore: first.cursor.id, collection: 'c' })));
    expect([err.code, err.codeName, err.errmsg]).toEqual([50, 'ExceededTimeLimit', TIMEOUT]);
  });

  test("a client's maxTimeMS under 60 s still answers first, as mongod's 50", async () => {
    const err = await withClockStep(cosmos, 10, () => errorOf(() => command(cosmos, { aggregate: 'c', pipeline: [{ $sort: { g: 1 } }], cursor: {}, maxTimeMS: 25 })));
    expect([err.code, err.codeName, err.errmsg]).toEqual([50, 'MaxTimeMSExpired', 'PlanExecutor error during aggregation :: caused by :: operation exceeded time limit']);
  });

  test.each(SLOW)('%s runs to the end with the rule off and in mongodb mode', async (_name, body) => {
    for (const h of [off, mongodb]) {
      const reply = await withClockStep(h, 10_000, () => command(h, body));
      expect(reply.ok).toBe(1);
    }
  });
});
