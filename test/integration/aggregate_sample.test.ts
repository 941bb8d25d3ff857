/** `$sample` through the driver: sizes and errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double } from 'mongodb';
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

describe('$sample', () => {
  it('draws distinct documents, at most the input', async () => {
    await seed(db, 'sample_src', Array.from({ length: 20 }, (_, i) => ({ _id: i })));
    const out = await db.collection('sample_src').aggregate([{ $sample: { size: 5 } }]).toArray();
    expect(new Set(out.map((d) => d._id)).size).toBe(5);
    expect(await db.collection('sample_src').aggregate([{ $sample: { size: new Double(100) } }, { $count: 'n' }]).toArray()).toEqual([{ n: 20 }]);
  });

  it('refuses a non-positive or non-numeric size', async () => {
    expect((await errorOf(() => db.collection('sample_src').aggregate([{ $sample: { size: 0 } }]).toArray())).code).toBe(28747);
    expect((await errorOf(() => db.collection('sample_src').aggregate([{ $sample: { size: 'x' } }]).toArray())).code).toBe(28746);
  });
});
