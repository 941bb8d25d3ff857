/**
 * collMod's conversion of an index to unique through the official driver: prepareUnique, then
 * unique (refused while documents share a key), dryRun, forceNonUnique, and the rules on
 * combining them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

async function indexSpec(coll: string, name: string): Promise<Document | undefined> {
  return (await db.collection(coll).listIndexes().toArray()).find((i) => i.name === name);
}

describe('collMod unique conversion', () => {
  it('prepareUnique, then unique: the spec and the replies', async () => {
    await db.collection('u').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    await db.collection('u').createIndex({ a: 1 }, { name: 'a_1' });
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', prepareUnique: true } })).toEqual({ prepareUnique_old: false, prepareUnique_new: true, ok: 1 });
    expect(await indexSpec('u', 'a_1')).toEqual({ v: 2, key: { a: 1 }, name: 'a_1', prepareUnique: true });
    // Setting it again changes nothing.
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', prepareUnique: 1 } })).toEqual({ ok: 1 });
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', unique: true }, dryRun: true })).toEqual({ ok: 1 });
    expect((await indexSpec('u', 'a_1'))!.unique).toBeUndefined();
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', unique: true } })).toEqual({ unique_new: true, ok: 1 });
    expect(await indexSpec('u', 'a_1')).toEqual({ v: 2, key: { a: 1 }, name: 'a_1', unique: true });
    const dup = await errorOf(() => db.collection('u').insertOne({ _id: 3, a: 1 }));
    expect(dup.code).toBe(11000);
    // Already unique: a no-op.
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', unique: true } })).toEqual({ ok: 1 });
    expect(await db.command({ collMod: 'u', index: { name: 'a_1', forceNonUnique: true } })).toEqual({ forceNonUnique_new: true, ok: 1 });
    expect(await indexSpec('u', 'a_1')).toEqual({ v: 2, key: { a: 1 }, name: 'a_1' });
  });

  it('documents sharing a key: 359 with their _ids, for the conversion and its dry run', async () => {
    await db.collection('d').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 1 }, { _id: 3, a: 2 }]);
    await db.command({ createIndexes: 'd', indexes: [{ key: { a: 1 }, name: 'a_1', prepareUnique: true }] });
    for (const extra of [{}, { dryRun: true }]) {
      const err = await errorOf(() => db.command({ collMod: 'd', index: { name: 'a_1', unique: true }, ...extra }));
      expect([err.code, err.codeName, err.errmsg, err.violations]).toEqual([
        359,
        'CannotConvertIndexToUnique',
        'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
        [{ ids: [1, 2] }],
      ]);
    }
  });

  it('refuses what mongod refuses', async () => {
    await db.collection('r').insertOne({ _id: 1, a: 1 });
    await db.collection('r').createIndex({ a: 1 }, { name: 'a_1' });
    const cases: Array<[Document, number, string]> = [
      [{ index: { name: 'a_1', unique: false } }, 2, 'Cannot make index non-unique'],
      [{ index: { name: 'a_1', unique: true } }, 72, "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first."],
      [{ index: { name: 'a_1', forceNonUnique: false } }, 2, "'forceNonUnique: false' is not supported"],
      [{ index: { name: 'a_1', unique: true, forceNonUnique: true } }, 72, "collMod does not support 'unique' and 'forceNonUnique' options at the same time"],
      [{ index: { name: 'a_1', prepareUnique: true, hidden: true } }, 72, 'prepareUnique cannot be combined with any other modification.'],
      [{ index: { name: 'a_1', hidden: true }, dryRun: true }, 72, 'dry run mode requires an index modification with unique: true.'],
      [{ index: { name: 'a_1', unique: 'yes' } }, 14, "BSON field 'collMod.index.unique' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"],
    ];
    for (const [options, code, errmsg] of cases) {
      const err = await errorOf(() => db.command({ collMod: 'r', ...options }));
      expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code, errmsg });
    }
    // A prepareUnique that changes nothing may go with another change.
    expect(await db.command({ collMod: 'r', index: { name: 'a_1', prepareUnique: false, hidden: true } })).toEqual({ hidden_old: false, hidden_new: true, ok: 1 });
  });
});
