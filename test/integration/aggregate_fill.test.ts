/** `$fill` through the driver. */
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

describe('$fill', () => {
  it('fills by locf and linear', async () => {
    await seed(db, 'fill_src', [{ _id: 1, t: 0, v: 10 }, { _id: 2, t: 1, v: null }, { _id: 3, t: 2, v: 30 }]);
    const locf = await db.collection('fill_src').aggregate([{ $fill: { sortBy: { t: 1 }, output: { v: { method: 'locf' } } } }]).toArray();
    expect(locf).toEqual([{ _id: 1, t: 0, v: 10 }, { _id: 2, t: 1, v: 10 }, { _id: 3, t: 2, v: 30 }]);
    const linear = await db.collection('fill_src').aggregate([{ $fill: { sortBy: { t: 1 }, output: { v: { method: 'linear' } } } }]).toArray();
    expect(linear).toEqual([{ _id: 1, t: 0, v: 10 }, { _id: 2, t: 1, v: 20 }, { _id: 3, t: 2, v: 30 }]);
  });

  it('refuses both value and method', async () => {
    expect((await errorOf(() => db.collection('fill_src').aggregate([{ $fill: { output: { v: { value: 1, method: 'locf' } } } }]).toArray())).code).toBe(6050202);
  });
});
