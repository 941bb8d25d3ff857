/** `$densify` through the driver. */
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

describe('$densify', () => {
  it('fills the gaps of a numeric sequence', async () => {
    await seed(db, 'densify_src', [{ _id: 1, t: 1 }, { _id: 2, t: 4 }]);
    const out = await db.collection('densify_src').aggregate([{ $densify: { field: 't', range: { step: 1, bounds: 'full' } } }]).toArray();
    expect(out).toEqual([{ _id: 1, t: 1 }, { t: 2 }, { t: 3 }, { _id: 2, t: 4 }]);
  });

  it('refuses a zero step', async () => {
    expect((await errorOf(() => db.collection('densify_src').aggregate([{ $densify: { field: 't', range: { step: 0, bounds: 'full' } } }]).toArray())).code).toBe(5733401);
  });
});
