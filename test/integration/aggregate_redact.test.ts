/** `$redact` through the driver: `$$DESCEND` into subdocuments and arrays, 17053. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, errorOf, seed, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

describe('$redact', () => {
  it('descends, prunes and keeps', async () => {
    await seed(db, 'redact_src', [{ _id: 1, l: 1, a: { l: 2 }, b: [{ l: 1, x: 1 }, { l: 5 }] }, { _id: 2, l: 9 }]);
    const out = await db.collection('redact_src').aggregate([{ $redact: { $cond: [{ $gt: [{ $ifNull: ['$l', 0] }, 1] }, '$$PRUNE', '$$DESCEND'] } }]).toArray();
    expect(out).toEqual([{ _id: 1, l: 1, b: [{ l: 1, x: 1 }] }]);
  });

  it('refuses any other result', async () => {
    const err = await errorOf(() => db.collection('redact_src').aggregate([{ $redact: 1 }]).toArray());
    expect(err.code).toBe(17053);
  });
});
