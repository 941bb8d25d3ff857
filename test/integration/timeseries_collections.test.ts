/**
 * Time-series collections through the official driver: create's checks and the options it
 * stores, listCollections and listIndexes, inserts (the timeField must be a date), reads in
 * meta/time order, the update restrictions, collMod of granularity, bucketing and
 * expireAfterSeconds, the collection TTL, and `$out` with `timeseries`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Int32, Long, type Document } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';
import { advance, runPass } from './ttl_helpers.js';

let h: Harness;
let db: TestDb;
/** The namespace the failing creates name. */
let NS = '';

beforeAll(async () => {
  h = await startHarness({ clock: 'manual' });
  db = h.db;
  NS = `${db.databaseName}.bad`;
});
afterAll(async () => {
  await h.close();
});

async function listed(name: string): Promise<Document[]> {
  const reply = await db.command({ listCollections: 1, filter: { name: { $in: [name, `system.buckets.${name}`] } } }, { promoteValues: false });
  return reply.cursor.firstBatch as Document[];
}

describe('creating a time-series collection', () => {
  it('stores the options mongod stores, listed with its buckets collection', async () => {
    expect(await db.command({ create: 'ts1', timeseries: { timeField: 't', metaField: 'm' }, expireAfterSeconds: new Decimal128('100.5') })).toEqual({ ok: 1 });
    const [ts, buckets] = await listed('ts1');
    expect(ts).toEqual({
      name: 'ts1',
      type: 'timeseries',
      options: {
        expireAfterSeconds: Long.fromNumber(100),
        timeseries: { timeField: 't', metaField: 'm', granularity: 'seconds', bucketMaxSpanSeconds: new Int32(3600) },
      },
      info: { readOnly: false },
    });
    expect(buckets!.name).toBe('system.buckets.ts1');
    expect(buckets!.type).toBe('collection');
    expect(buckets!.options.clusteredIndex).toBe(true);
    expect(Object.keys(buckets!.info)).toEqual(['readOnly', 'uuid']);
    // The same options again are a no-op; other ones a conflict.
    expect(await db.command({ create: 'ts1', timeseries: { timeField: 't', metaField: 'm' }, expireAfterSeconds: 100 })).toEqual({ ok: 1 });
    expect((await errorOf(() => db.command({ create: 'ts1', timeseries: { timeField: 't' } }))).code).toBe(48);
  });

  it('custom bucketing keeps both fields and no granularity; a granularity fixes the span', async () => {
    await db.command({ create: 'ts2', timeseries: { timeField: 't', bucketMaxSpanSeconds: 300.9, bucketRoundingSeconds: Long.fromNumber(300) } });
    await db.command({ create: 'ts3', timeseries: { timeField: 't', granularity: 'hours', bucketMaxSpanSeconds: 2592000 } });
    expect((await listed('ts2'))[0]!.options).toEqual({
      timeseries: { timeField: 't', bucketRoundingSeconds: new Int32(300), bucketMaxSpanSeconds: new Int32(300) },
    });
    expect((await listed('ts3'))[0]!.options).toEqual({ timeseries: { timeField: 't', granularity: 'hours', bucketMaxSpanSeconds: new Int32(2592000) } });
  });

  it.each([
    [{ timeseries: 'x' }, 14, "BSON field 'create.timeseries' is the wrong type 'string', expected type 'object'"],
    [{ timeseries: {} }, 40414, "BSON field 'create.timeseries.timeField' is missing but a required field"],
    [{ timeseries: { timeField: null } }, 40414, "BSON field 'create.timeseries.timeField' is missing but a required field"],
    [{ timeseries: { timeField: 1 } }, 14, "BSON field 'create.timeseries.timeField' is the wrong type 'int', expected type 'string'"],
    [{ timeseries: { timeField: 't', bogus: 1 } }, 40415, "BSON field 'create.timeseries.bogus' is an unknown field."],
    [{ timeseries: { timeField: 't', granularity: 'days' } }, 2, "Enumeration value 'days' for field 'create.timeseries.granularity' is not a valid value."],
    [{ timeseries: { timeField: 't', bucketMaxSpanSeconds: 0, bucketRoundingSeconds: 0 } }, 2, "BSON field 'bucketMaxSpanSeconds' value must be >= 1, actual value '0'"],
    [{ timeseries: { timeField: 't', bucketMaxSpanSeconds: Infinity, bucketRoundingSeconds: 1 } }, 2, "BSON field 'bucketMaxSpanSeconds' value must be <= 31536000, actual value '2147483647'"],
    [{ timeseries: { timeField: 'a.b' } }, 72, `<ns>: 'timeField' must be a top-level field and not contain a '.'`],
    [{ timeseries: { timeField: 't', metaField: '_id' } }, 72, `'metaField' cannot be "_id"`],
    [{ timeseries: { timeField: 't', metaField: 't' } }, 72, "'metaField' cannot be the same as 'timeField'"],
    [{ timeseries: { timeField: 't' }, capped: true, size: 4096 }, 72, `<ns>: 'timeseries' is not allowed with 'capped'`],
    [{ timeseries: { timeField: 't' }, validator: { a: 1 } }, 72, `<ns>: 'timeseries' is not allowed with 'validator'`],
    [{ timeseries: { timeField: 't', bucketMaxSpanSeconds: 300 } }, 72, "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other"],
    [{ timeseries: { timeField: 't', bucketMaxSpanSeconds: 300, bucketRoundingSeconds: 600 } }, 72, "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"],
    [
      { timeseries: { timeField: 't', granularity: 'seconds', bucketMaxSpanSeconds: 60 } },
      72,
      "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of 3600 for the provided granularity",
    ],
    [{ timeseries: { timeField: 't' }, expireAfterSeconds: -1 }, 72, "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    [{ timeseries: { timeField: 't' }, expireAfterSeconds: true }, 14, "BSON field 'create.expireAfterSeconds' is the wrong type 'bool', expected types '[long, int, decimal, double']"],
    [
      { timeseries: { timeField: 't' }, expireAfterSeconds: Long.fromString('9223372036854776') },
      72,
      "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number",
    ],
    [{ expireAfterSeconds: 10 }, 72, "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified"],
  ])('%j fails with %i', async (options, code, errmsg) => {
    const err = await errorOf(() => db.command({ create: 'bad', ...options }));
    expect([err.code, err.errmsg]).toEqual([code, errmsg.replace('<ns>', NS)]);
  });
});

describe('measurements', () => {
  beforeAll(async () => {
    await db.command({ create: 'm', timeseries: { timeField: 'time', metaField: 'meta' } });
  });

  it('need a date in the timeField', async () => {
    const err = await errorOf(() => db.collection('m').insertOne({ time: 5, meta: 'a' }));
    expect([err.code, err.errmsg]).toEqual([2, "'time' must be present and contain a valid BSON UTC datetime value"]);
  });

  it('are read grouped by meta value, in time order within a group', async () => {
    const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute));
    await db.collection('m').insertMany([
      { time: at(5), meta: 'b', v: 1 },
      { time: at(1), meta: 'a', v: 2 },
      { time: at(3), meta: 'b', v: 3 },
      { time: at(2), meta: 'a', v: 4 },
    ]);
    const docs = await db.collection('m').find({}, { projection: { _id: 0, v: 1 } }).toArray();
    expect(docs).toEqual([{ v: 2 }, { v: 4 }, { v: 3 }, { v: 1 }]);
  });

  it('listIndexes shows the meta/time index and no _id index', async () => {
    expect(await db.collection('m').listIndexes().toArray()).toEqual([{ v: 2, key: { meta: 1, time: 1 }, name: 'meta_1_time_1' }]);
  });

  it('updates only the metaField, many documents at a time, never upserting', async () => {
    const res = await db.collection('m').updateMany({ meta: 'a' }, { $set: { meta: 'c' } });
    expect([res.matchedCount, res.modifiedCount]).toEqual([2, 2]);
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => db.collection('m').updateOne({ meta: 'b' }, { $set: { meta: 'x' } }), 'Cannot perform a non-multi update on a time-series collection'],
      [() => db.collection('m').updateMany({}, { $set: { v: 1 } }), 'Cannot perform an update on a time-series collection that updates fields that are not the metaField'],
      [() => db.collection('m').updateMany({}, { $rename: { meta: 'other' } }), 'Cannot perform an update on a time-series collection that updates fields that are not the metaField'],
      [() => db.collection('m').updateMany({ meta: 'z' }, { $set: { meta: 'z' } }, { upsert: true }), 'Cannot perform an upsert on a time-series collection'],
      [() => db.collection('m').updateMany({}, [{ $set: { meta: 'x' } }]), 'Cannot perform an update on a time-series collection using a pipeline'],
      [() => db.collection('m').findOneAndUpdate({}, { $set: { meta: 'x' } }), 'Cannot perform a non-multi update on a time-series collection'],
    ];
    for (const [run, errmsg] of cases) {
      const err = await errorOf(run);
      expect([err.code, err.errmsg]).toEqual([72, errmsg]);
    }
    expect((await db.collection('m').find({ meta: 'c' }).toArray()).length).toBe(2);
  });
});

describe('collMod', () => {
  it('makes the granularity coarser, never finer', async () => {
    await db.command({ create: 'g', timeseries: { timeField: 't', granularity: 'minutes' } });
    expect(await db.command({ collMod: 'g', timeseries: { granularity: 'hours' } })).toEqual({ ok: 1 });
    expect((await listed('g'))[0]!.options.timeseries).toEqual({ timeField: 't', granularity: 'hours', bucketMaxSpanSeconds: new Int32(2592000) });
    const err = await errorOf(() => db.command({ collMod: 'g', timeseries: { granularity: 'minutes' } }));
    expect([err.code, err.errmsg]).toEqual([72, "Invalid transition for timeseries.granularity. Can only transition from 'seconds' to 'minutes' or 'minutes' to 'hours'."]);
  });

  it('widens custom bucketing, never narrows it', async () => {
    await db.command({ create: 'b', timeseries: { timeField: 't', bucketMaxSpanSeconds: 300, bucketRoundingSeconds: 300 } });
    expect(await db.command({ collMod: 'b', timeseries: { bucketMaxSpanSeconds: 600, bucketRoundingSeconds: 600 } })).toEqual({ ok: 1 });
    expect((await listed('b'))[0]!.options.timeseries).toEqual({ timeField: 't', bucketRoundingSeconds: new Int32(600), bucketMaxSpanSeconds: new Int32(600) });
    const narrower = await errorOf(() => db.command({ collMod: 'b', timeseries: { bucketMaxSpanSeconds: 300, bucketRoundingSeconds: 300 } }));
    expect([narrower.code, narrower.errmsg]).toEqual([72, 'Timeseries bucketMaxSpanSeconds needs to be greater than or equal to the current value']);
    const unknown = await errorOf(() => db.command({ collMod: 'b', timeseries: { timeField: 'x' } }));
    expect([unknown.code, unknown.errmsg]).toEqual([40415, "BSON field 'collMod.timeseries.timeField' is an unknown field."]);
  });

  it('sets and clears expireAfterSeconds; refuses what a time-series collection cannot have', async () => {
    await db.command({ create: 'e', timeseries: { timeField: 't' } });
    await db.command({ collMod: 'e', expireAfterSeconds: 100.9 });
    expect((await listed('e'))[0]!.options.expireAfterSeconds).toEqual(Long.fromNumber(100));
    await db.command({ collMod: 'e', expireAfterSeconds: 'off' });
    expect((await listed('e'))[0]!.options.expireAfterSeconds).toBeUndefined();
    const cases: Array<[Document, number, string]> = [
      [{ expireAfterSeconds: 'Off' }, 72, "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got value: Off. The only accepted string value is 'off'"],
      [{ expireAfterSeconds: -1 }, 72, "TTL index 'expireAfterSeconds' option cannot be less than 0"],
      [{ expireAfterSeconds: null }, 14, "BSON field 'collMod.expireAfterSeconds' is the wrong type 'null', expected types '[string, long']"],
      [{ validator: { a: 1 } }, 72, 'option not supported on a time-series collection: validator'],
    ];
    for (const [change, code, errmsg] of cases) {
      const err = await errorOf(() => db.command({ collMod: 'e', ...change }));
      expect([err.code, err.errmsg]).toEqual([code, errmsg]);
    }
    await db.command({ create: 'plain' });
    const plain = await errorOf(() => db.command({ collMod: 'plain', timeseries: {} }));
    expect([plain.code, plain.errmsg]).toEqual([72, 'option only supported on a time-series collection: timeseries']);
  });
});

describe('the collection TTL', () => {
  it('removes measurements whose time is expireAfterSeconds old', async () => {
    await db.command({ create: 'ttl', timeseries: { timeField: 't' }, expireAfterSeconds: 60 });
    const now = await db.admin().command({ mayflyClock: 1 });
    const nowMs = (now.now as Date).getTime();
    await db.collection('ttl').insertMany([
      { t: new Date(nowMs - 120_000), v: 'old' },
      { t: new Date(nowMs), v: 'new' },
    ]);
    await runPass(h.client);
    expect(await db.collection('ttl').find({}, { projection: { _id: 0, v: 1 } }).toArray()).toEqual([{ v: 'new' }]);
    await advance(h.client, 61);
    await runPass(h.client);
    expect(await db.collection('ttl').countDocuments()).toBe(0);
  });
});

describe('$out with timeseries', () => {
  it('creates a time-series collection, and writes into a matching one', async () => {
    await db.collection('src').insertMany([{ _id: 1, t: new Date(Date.UTC(2024, 0, 1)), m: 'x' }]);
    await db.collection('src').aggregate([{ $out: { db: db.databaseName, coll: 'outts', timeseries: { timeField: 't', metaField: 'm' } } }]).toArray();
    expect((await listed('outts'))[0]!.options).toEqual({ timeseries: { timeField: 't', metaField: 'm', granularity: 'seconds', bucketMaxSpanSeconds: new Int32(3600) } });
    expect(await db.collection('outts').find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ t: new Date(Date.UTC(2024, 0, 1)), m: 'x' }]);
    await db.collection('src').aggregate([{ $out: 'outts' }]).toArray();
    expect(await db.collection('outts').countDocuments()).toBe(1);
  });

  it.each([
    [{ timeseries: { timeField: 't', granularity: 'minutes' } }, 'outts', 7406103],
    [{ timeseries: { timeField: 't' } }, 'src', 7268700],
    [{ timeseries: { timeField: 't', bucketMaxSpanSeconds: 5, bucketRoundingSeconds: 6 } }, 'fresh', 72],
    [{ timeseries: { timeField: 't', extra: 1 } }, 'fresh', 40415],
  ])('%j into %s fails with %i', async (spec, coll, code) => {
    const err = await errorOf(() => db.collection('src').aggregate([{ $out: { db: db.databaseName, coll, ...spec } }]).toArray());
    expect(err.code).toBe(code);
  });

  it('refuses a measurement without a date', async () => {
    await db.collection('nodate').insertOne({ _id: 1, t: 'not a date' });
    const err = await errorOf(() => db.collection('nodate').aggregate([{ $out: { db: db.databaseName, coll: 'outbad', timeseries: { timeField: 't' } } }]).toArray());
    expect([err.code, err.errmsg]).toEqual([2, "PlanExecutor error during aggregation :: caused by :: 't' must be present and contain a valid BSON UTC datetime value"]);
    expect(await listed('outbad')).toEqual([]);
  });
});
