/** `$densify` through the driver. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

async function seed(name: string, docs: Array<Record<string, unknown>>): Promise<void> {
  await db.collection(name).drop().catch(() => undefined);
  if (docs.length > 0) await db.collection(name).insertMany(docs);
}

describe('$densify', () => {
  it('fills the gaps of a numeric sequence', async () => {
    await seed('densify_src', [{ _id: 1, t: 1 }, { _id: 2, t: 4 }]);
    const out = await db.collection('densify_src').aggregate([{ $densify: { field: 't', range: { step: 1, bounds: 'full' } } }]).toArray();
    expect(out).toEqual([{ _id: 1, t: 1 }, { t: 2 }, { t: 3 }, { _id: 2, t: 4 }]);
  });

  it('refuses a zero step', async () => {
    expect((await errorOf(() => db.collection('densify_src').aggregate([{ $densify: { field: 't', range: { step: 0, bounds: 'full' } } }]).toArray())).code).toBe(5733401);
  });
});
