/**
 * Capped collections through the official driver: create's checks and the options it stores,
 * collStats and $collStats, eviction of the oldest documents by count and by size, a document
 * larger than the collection, collMod cappedSize/cappedMax.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32, Long, type Document } from 'mongodb';
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

async function rawOptions(name: string): Promise<Document> {
  const reply = await db.command({ listCollections: 1, filter: { name } }, { promoteValues: false });
  return reply.cursor.firstBatch[0].options as Document;
}

describe('creating a capped collection', () => {
  it('size and max are stored as integers (max ≤ 0: no limit, 2147483647)', async () => {
    const cases: Array<[string, Document, Document]> = [
      ['a', { capped: true, size: new Double(1000.7) }, { capped: true, size: new Int32(1000) }],
      ['b', { capped: 1, size: Long.fromNumber(1000), max: new Double(3.7) }, { capped: true, size: new Int32(1000), max: new Int32(3) }],
      ['c', { capped: true, size: Long.fromNumber(2 ** 50) }, { capped: true, size: Long.fromNumber(2 ** 50) }],
      ['d', { capped: true, size: 1000, max: 0 }, { capped: true, size: new Int32(1000), max: new Int32(2147483647) }],
      ['e', { capped: true, size: 1000, max: Long.fromNumber(-5) }, { capped: true, size: new Int32(1000), max: new Int32(2147483647) }],
      ['f', { capped: true, size: 10, max: null }, { capped: true, size: new Int32(10) }],
    ];
    for (const [name, options, stored] of cases) {
      expect(await db.command({ create: name, ...options })).toEqual({ ok: 1 });
      expect(await rawOptions(name)).toEqual(stored);
    }
    // Options that normalise to the same thing are no conflict; a different size is.
    expect(await db.command({ create: 'd', capped: true, size: new Double(1000.9), max: -7 })).toEqual({ ok: 1 });
    const err = await errorOf(() => db.command({ create: 'd', capped: true, size: 2000 }));
    expect(err.code).toBe(48);
  });

  it.each([
    [{ capped: true, size: 0 }, 2, "BSON field 'size' value must be >= 1, actual value '0'"],
    [{ capped: true, size: -1 }, 2, "BSON field 'size' value must be >= 1, actual value '-1'"],
    [{ capped: true, size: 0.5 }, 2, "BSON field 'size' value must be >= 1, actual value '0'"],
    [{ capped: true, size: NaN }, 2, "BSON field 'size' value must be >= 1, actual value '0'"],
    [{ capped: true, size: Long.fromNumber(2 ** 62) }, 2, "BSON field 'size' value must be <= 1125899906842624, actual value '4611686018427387904'"],
    [{ capped: true, size: Infinity }, 2, "BSON field 'size' value must be <= 1125899906842624, actual value '9223372036854775807'"],
    [{ capped: true, size: 1000, max: Long.fromNumber(2 ** 31) }, 2, "BSON field 'max' value must be < 2147483648, actual value '2147483648'"],
    [{ size: 0 }, 2, "BSON field 'size' value must be >= 1, actual value '0'"],
    [{ capped: true }, 72, "the 'size' field is required when 'capped' is true"],
    [{ size: 4096 }, 72, "the 'capped' field needs to be true when either the 'size' or 'max' fields are present"],
    [{ capped: false, max: 5 }, 72, "the 'capped' field needs to be true when either the 'size' or 'max' fields are present"],
  ])('%j fails with %i', async (options, code, errmsg) => {
    const err = await errorOf(() => db.command({ create: 'bad', ...options }));
    expect([err.code, err.errmsg]).toEqual([code, errmsg]);
    expect(await db.listCollections({ name: 'bad' }).toArray()).toEqual([]);
  });
});

describe('a capped collection at work', () => {
  it('max: the oldest documents make room, in natural order', async () => {
    await db.createCollection('bymax', { capped: true, size: 100000, max: 3 });
    const coll = db.collection('bymax');
    for (let i = 0; i < 5; i++) await coll.insertOne({ _id: i });
    await coll.insertMany([{ _id: 5 }, { _id: 6 }]);
    expect(await coll.find().toArray()).toEqual([{ _id: 4 }, { _id: 5 }, { _id: 6 }]);
    // Deletes and updates are allowed and evict nothing.
    await coll.deleteOne({ _id: 5 });
    await coll.updateOne({ _id: 4 }, { $set: { note: 'kept' } });
    await coll.insertOne({ _id: 7 });
    expect(await coll.find().toArray()).toEqual([{ _id: 4, note: 'kept' }, { _id: 6 }, { _id: 7 }]);
  });

  it('size: documents go until the total BSON size fits; a document larger than the collection is refused', async () => {
    await db.createCollection('bysize', { capped: true, size: 100 });
    const coll = db.collection('bysize');
    const pad = 'x'.repeat(20); // each document is 44 bytes of BSON
    for (let i = 0; i < 5; i++) await coll.insertOne({ _id: i, pad });
    expect((await coll.find().toArray()).map((d) => d._id)).toEqual([3, 4]);
    const err = await errorOf(() => coll.insertOne({ _id: 9, pad: 'y'.repeat(200) }));
    expect([err.code, err.errmsg]).toEqual([10334, 'object to insert exceeds cappedMaxSize']);
    expect((await coll.find().toArray()).map((d) => d._id)).toEqual([3, 4]);
  });

  it('$out cannot replace a capped collection', async () => {
    await db.createCollection('capout', { capped: true, size: 1000 });
    await db.collection('capsrc').insertOne({ _id: 1 });
    const err = await errorOf(() => db.collection('capsrc').aggregate([{ $out: 'capout' }]).toArray());
    expect([err.code, err.errmsg]).toEqual([17152, `PlanExecutor error during aggregation :: caused by :: namespace '${db.databaseName}.capout' is capped so it can't be used for $out`]);
  });

  it('an upsert inserts into a capped collection like an insert', async () => {
    await db.createCollection('ups', { capped: true, size: 100000, max: 2 });
    const coll = db.collection('ups');
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    await coll.updateOne({ _id: 3 }, { $set: { a: 1 } }, { upsert: true });
    expect(await coll.find().toArray()).toEqual([{ _id: 2 }, { _id: 3, a: 1 }]);
  });
});

describe('statistics and collMod', () => {
  it('collStats and $collStats report capped, max and maxSize', async () => {
    await db.createCollection('st', { capped: true, size: 1000, max: 5 });
    await db.createCollection('nomax', { capped: true, size: 1000 });
    await db.createCollection('plain');
    await db.collection('st').insertOne({ _id: 1 });
    const stats = await db.command({ collStats: 'st' });
    expect([stats.capped, stats.max, stats.maxSize, stats.count]).toEqual([true, 5, 1000, 1]);
    expect(Object.keys(stats).slice(0, 10)).toEqual(['ns', 'size', 'count', 'avgObjSize', 'numOrphanDocs', 'storageSize', 'freeStorageSize', 'capped', 'max', 'maxSize']);
    expect(await db.command({ collStats: 'nomax', scale: 10 })).toMatchObject({ capped: true, max: 0, maxSize: 100 });
    const plain = await db.command({ collStats: 'plain' });
    expect([plain.capped, 'max' in plain, 'maxSize' in plain]).toEqual([false, false, false]);
    const staged = await db
      .collection('st')
      .aggregate([{ $collStats: { storageStats: {}, count: {} } }, { $project: { _id: 0, ns: 1, count: 1, capped: '$storageStats.capped', maxSize: '$storageStats.maxSize', max: '$storageStats.max' } }])
      .toArray();
    expect(staged).toEqual([{ ns: `${db.databaseName}.st`, count: 1, capped: true, maxSize: 1000, max: 5 }]);
    const missing = await errorOf(() => db.collection('none').aggregate([{ $collStats: { storageStats: {} } }]).toArray());
    expect([missing.code, missing.errmsg]).toEqual([26, `Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [${db.databaseName}.none] not found.`]);
    const late = await errorOf(() => db.collection('st').aggregate([{ $match: {} }, { $collStats: {} }]).toArray());
    expect([late.code, late.errmsg]).toEqual([40602, '$collStats is only valid as the first stage in a pipeline']);
  });

  it('collMod cappedSize and cappedMax rebound the collection', async () => {
    await db.createCollection('re', { capped: true, size: 1000, max: 5 });
    await db.collection('re').insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    expect(await db.command({ collMod: 're', cappedSize: new Double(7000.9), cappedMax: Long.fromNumber(2) })).toEqual({ ok: 1 });
    expect(await rawOptions('re')).toEqual({ capped: true, size: new Int32(7000), max: new Int32(2) });
    // The next insert evicts what no longer fits.
    await db.collection('re').insertOne({ _id: 4 });
    expect(await db.collection('re').find().toArray()).toEqual([{ _id: 3 }, { _id: 4 }]);
    await db.command({ collMod: 're', cappedMax: 0 });
    expect((await rawOptions('re')).max).toEqual(new Int32(2147483647));
    const cases: Array<[Document, number, string]> = [
      [{ collMod: 're', cappedSize: 0 }, 2, "BSON field 'cappedSize' value must be >= 1, actual value '0'"],
      [{ collMod: 're', cappedMax: Long.fromNumber(2 ** 31) }, 2, "BSON field 'cappedMax' value must be < 2147483648, actual value '2147483648'"],
      [{ collMod: 'plain', cappedSize: 5000 }, 72, 'Collection must be capped.'],
      [{ collMod: 'plain', cappedSize: 0 }, 2, "BSON field 'cappedSize' value must be >= 1, actual value '0'"],
    ];
    for (const [cmd, code, errmsg] of cases) {
      const err = await errorOf(() => db.command(cmd));
      expect([cmd, err.code, err.errmsg]).toEqual([cmd, code, errmsg]);
    }
  });
});
