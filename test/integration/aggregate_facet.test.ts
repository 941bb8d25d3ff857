/** `$facet` through the driver: one document of arrays, the sub-pipelines' restrictions. */
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

describe('$facet', () => {
  it('runs every sub-pipeline over the same input', async () => {
    await seed(db, 'facet_src', [{ _id: 1, c: 'a' }, { _id: 2, c: 'b' }, { _id: 3, c: 'a' }]);
    const out = await db.collection('facet_src').aggregate([{ $facet: { a: [{ $match: { c: 'a' } }, { $project: { _id: 1 } }], n: [{ $count: 'n' }] } }]).toArray();
    expect(out).toEqual([{ a: [{ _id: 1 }, { _id: 3 }], n: [{ n: 3 }] }]);
  });

  it('refuses $out inside (40600) and a dotted name (16412)', async () => {
    expect((await errorOf(() => db.collection('facet_src').aggregate([{ $facet: { a: [{ $out: 'x' }] } }]).toArray())).code).toBe(40600);
    expect((await errorOf(() => db.collection('facet_src').aggregate([{ $facet: { 'a.b': [] } }]).toArray())).code).toBe(16412);
  });
});
