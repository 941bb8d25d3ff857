/**
 * `$out` and `$merge` through the write path, by the official driver: `$out` replacing
 * atomically (the old collection intact after a failure, its indexes and options kept), to
 * another database, refusing views; `$merge` with every whenMatched (a pipeline with `let` and
 * `$$new` included) and whenNotMatched, its unordered batches, its `on` rules; inserts storing a
 * top-level Timestamp(0, 0) as a fresh timestamp.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Timestamp } from 'mongodb';
import { errorOf, seed, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

const sorted = async (name: string, dbName?: string) => (dbName ? h.client.db(dbName) : h.db).collection(name).find({}, { sort: { _id: 1 } }).toArray();

describe('$out', () => {
  test('replaces the target, keeping its indexes and options; a failure leaves the old documents', async () => {
    await seed(h.db, 'out_src', [
      { _id: 1, k: 'a' },
      { _id: 2, k: 'b' },
    ]);
    await h.db.createCollection('out_target', { validator: { k: { $type: 'string' } } });
    await h.db.collection('out_target').createIndex({ k: 1 }, { unique: true, name: 'k_unique' });
    await h.db.collection('out_target').insertOne({ _id: 9, k: 'old' });
    await h.db.collection('out_src').aggregate([{ $out: 'out_target' }]).toArray();
    expect(await sorted('out_target')).toEqual([
      { _id: 1, k: 'a' },
      { _id: 2, k: 'b' },
    ]);
    const indexes = await h.db.collection('out_target').indexes();
    expect(indexes.map((i) => [i.name, i.unique ?? false])).toEqual([
      ['_id_', false],
      ['k_unique', true],
    ]);
    const info = (await h.db.listCollections({ name: 'out_target' }).toArray()) as Array<{ options?: unknown }>;
    expect(info[0]!.options).toEqual({ validator: { k: { $type: 'string' } } });

    // A duplicate key on the kept unique index fails the stage: the target keeps its documents.
    await seed(h.db, 'out_dup', [
      { _id: 1, k: 'same' },
      { _id: 2, k: 'same' },
    ]);
    const err = await errorOf(() => h.db.collection('out_dup').aggregate([{ $out: 'out_target' }]).toArray());
    expect(err.code).toBe(11000);
    expect(await sorted('out_target')).toEqual([
      { _id: 1, k: 'a' },
      { _id: 2, k: 'b' },
    ]);
    // No temporary collection is left behind.
    const names = (await h.db.listCollections().toArray()).map((c) => c.name).filter((n) => n.startsWith('tmp.'));
    expect(names).toEqual([]);
  });

  test('writes to another database, and refuses a view (166)', async () => {
    await seed(h.db, 'out_src2', [{ _id: 1, v: 1 }]);
    const other = `${h.db.databaseName}_other`;
    await h.db.collection('out_src2').aggregate([{ $out: { db: other, coll: 'copied' } }]).toArray();
    expect(await sorted('copied', other)).toEqual([{ _id: 1, v: 1 }]);
    await h.db.createCollection('out_view', { viewOn: 'out_src2', pipeline: [] });
    const err = await errorOf(() => h.db.collection('out_src2').aggregate([{ $out: 'out_view' }]).toArray());
    expect([err.code, err.codeName]).toEqual([166, 'CommandNotSupportedOnView']);
    await h.client.db(other).dropDatabase();
  });

  test('the document form needs db and coll (40414) and knows no other field (40415)', async () => {
    await seed(h.db, 'out_src3', [{ _id: 1 }]);
    const missing = await errorOf(() => h.db.collection('out_src3').aggregate([{ $out: { coll: 'x', db: null } }]).toArray());
    expect([missing.code, missing.errmsg]).toEqual([40414, "BSON field '$out.db' is missing but a required field"]);
    const unknown = await errorOf(() => h.db.collection('out_src3').aggregate([{ $out: { db: 'd', coll: 'x', extra: 1 } }]).toArray());
    expect([unknown.code, unknown.errmsg]).toEqual([40415, "BSON field '$out.extra' is an unknown field."]);
  });
});

describe('$merge', () => {
  test('whenMatched pipeline with let and $$new; unmatched documents inserted as they are', async () => {
    await seed(h.db, 'm_src', [
      { _id: 1, a: 10 },
      { _id: 2, a: 20 },
    ]);
    await seed(h.db, 'm_target', [{ _id: 1, x: 99 }]);
    await h.db
      .collection('m_src')
      .aggregate([{ $merge: { into: 'm_target', let: { doubled: { $multiply: ['$a', 2] } }, whenMatched: [{ $set: { got: '$$doubled', fromNew: '$$new.a', keep: '$x' } }] } }])
      .toArray();
    expect(await sorted('m_target')).toEqual([
      { _id: 1, x: 99, got: 20, fromNew: 10, keep: 99 },
      { _id: 2, a: 20 },
    ]);
  });

  test("'new' may only be $$ROOT (51273); let only with a pipeline (51199)", async () => {
    await seed(h.db, 'm_src2', [{ _id: 1 }]);
    const reserved = await errorOf(() => h.db.collection('m_src2').aggregate([{ $merge: { into: 't', let: { new: '$a' }, whenMatched: [{ $set: { b: 1 } }] } }]).toArray());
    expect([reserved.code, reserved.errmsg]).toEqual([51273, "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'"]);
    const letWithMode = await errorOf(() => h.db.collection('m_src2').aggregate([{ $merge: { into: 't', let: { v: 1 }, whenMatched: 'merge' } }]).toArray());
    expect([letWithMode.code, letWithMode.errmsg]).toEqual([51199, "Cannot use 'let' variables with 'whenMatched: merge' mode"]);
  });

  test('every statement is tried before the first error is reported (an unordered batch)', async () => {
    await seed(h.db, 'm_src3', [
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
      { _id: 3, a: 3 },
    ]);
    await seed(h.db, 'm_target3', [{ _id: 2, x: 'old' }]);
    const err = await errorOf(() => h.db.collection('m_src3').aggregate([{ $sort: { _id: 1 } }, { $merge: { into: 'm_target3', whenMatched: 'fail' } }]).toArray());
    expect(err.code).toBe(11000);
    expect(await sorted('m_target3')).toEqual([
      { _id: 1, a: 1 },
      { _id: 2, x: 'old' },
      { _id: 3, a: 3 },
    ]);
  });

  test('whenNotMatched fail: 13113 once the matched ones are merged', async () => {
    await seed(h.db, 'm_src4', [
      { _id: 1, a: 1 },
      { _id: 5, a: 5 },
    ]);
    await seed(h.db, 'm_target4', [{ _id: 1, x: 1 }]);
    const err = await errorOf(() => h.db.collection('m_src4').aggregate([{ $merge: { into: 'm_target4', whenMatched: 'merge', whenNotMatched: 'fail' } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([13113, 'PlanExecutor error during aggregation :: caused by :: $merge could not find a matching document in the target collection for at least one document in the source collection']);
    expect(await sorted('m_target4')).toEqual([{ _id: 1, x: 1, a: 1 }]);
  });

  test('on fields: a unique index is required (51183); an array value is 51185; null matches under a full unique index', async () => {
    await seed(h.db, 'm_src5', [{ _id: 1, key: null, val: 'src' }]);
    await seed(h.db, 'm_target5', [{ _id: 1, key: null, old: true }]);
    const noIndex = await errorOf(() => h.db.collection('m_src5').aggregate([{ $merge: { into: 'm_target5', on: 'key' } }]).toArray());
    expect([noIndex.code, noIndex.errmsg]).toEqual([51183, 'Cannot find index to verify that $merge fields will be unique']);
    await h.db.collection('m_target5').createIndex({ key: 1 }, { unique: true });
    await h.db.collection('m_src5').aggregate([{ $merge: { into: 'm_target5', on: 'key', whenMatched: 'merge' } }]).toArray();
    expect(await sorted('m_target5')).toEqual([{ _id: 1, key: null, old: true, val: 'src' }]);
    await seed(h.db, 'm_src6', [{ _id: 1, key: [1, 2] }]);
    const array = await errorOf(() => h.db.collection('m_src6').aggregate([{ $merge: { into: 'm_target5', on: 'key' } }]).toArray());
    expect([array.code, array.errmsg]).toEqual([51185, "PlanExecutor error during aggregation :: caused by :: $merge write error: 'on' field 'key' is an array"]);
  });

  test('spec errors as mongod: into (51178, 5786800), on (51134, 51187), whenMatched (51191), internal targets (31319, 31320)', async () => {
    await seed(h.db, 'm_src7', [{ _id: 1 }]);
    const cases: Array<[unknown, number, string]> = [
      [{ into: 5 }, 51178, "$merge 'into' field  must be either a string or an object, but found int"],
      [{ into: '' }, 5786800, "$merge 'into' field cannot be an empty string"],
      [{ into: 't', on: ['a', 1] }, 51134, "$merge 'on' array elements must be strings, but found int"],
      [{ into: 't', on: [] }, 51187, "If explicitly specifying $merge 'on', must include at least one field"],
      [{ into: 't', whenMatched: null }, 51191, "$merge 'whenMatched' field  must be either a string or an array, but found null"],
      [{ into: 'system.x' }, 31319, 'Cannot $merge to special collection: system.x'],
      [{ into: { db: 'admin', coll: 'x' } }, 31320, 'Cannot $merge to internal database: admin'],
    ];
    const got: Array<[number | undefined, string | undefined]> = [];
    for (const [spec] of cases) {
      const err = await errorOf(() => h.db.collection('m_src7').aggregate([{ $merge: spec }]).toArray());
      got.push([err.code, err.errmsg]);
    }
    expect(got).toEqual(cases.map(([, code, msg]) => [code, msg]));
  });
});

describe('inserts and Timestamp(0, 0)', () => {
  test('a top-level Timestamp(0, 0) is stored as a fresh timestamp; a nested one and an _id are kept', async () => {
    await h.db.collection('ts_fill').insertOne({ _id: 1, ts: new Timestamp({ t: 0, i: 0 }), nested: { ts: new Timestamp({ t: 0, i: 0 }) } });
    await h.db.collection('ts_fill').insertOne({ _id: new Timestamp({ t: 0, i: 0 }) as never, v: 2 });
    expect(await h.db.collection('ts_fill').countDocuments({ _id: new Timestamp({ t: 0, i: 0 }) as never })).toBe(1);
    const doc = await h.db.collection('ts_fill').findOne({ _id: 1 });
    const ts = doc!.ts as Timestamp;
    expect(ts).toBeInstanceOf(Timestamp);
    expect(ts.high).toBeGreaterThan(0);
    expect(ts.low).toBeGreaterThan(0);
    expect((doc!.nested as { ts: Timestamp }).ts.equals(new Timestamp({ t: 0, i: 0 }))).toBe(true);
  });
});
