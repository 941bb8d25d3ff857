/**
 * Clustered collections through the official driver: create's checks and the stored spec,
 * listCollections and listIndexes, `_id` order as natural order, the cluster key that cannot be
 * dropped, hidden or indexed twice, the RecordId size limit, and the collection TTL on `_id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, Decimal128, Int32, Long, type Document } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';
import { advance, runPass } from './ttl_helpers.js';

let h: Harness;
let db: TestDb;

beforeAll(async () => {
  h = await startHarness({ clock: 'manual' });
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

const CLUSTERED = { key: { _id: 1 }, unique: true };

describe('creating a clustered collection', () => {
  it('stores the spec spelled out, with no idIndex', async () => {
    expect(await db.command({ create: 'c1', clusteredIndex: CLUSTERED, expireAfterSeconds: 3600 })).toEqual({ ok: 1 });
    const reply = await db.command({ listCollections: 1, filter: { name: 'c1' } }, { promoteValues: false });
    const entry = reply.cursor.firstBatch[0] as Document;
    expect(entry.options).toEqual({
      clusteredIndex: { v: new Int32(2), key: { _id: new Int32(1) }, name: '_id_', unique: true },
      expireAfterSeconds: Long.fromNumber(3600),
    });
    expect(entry.idIndex).toBeUndefined();
    expect(await db.collection('c1').listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_', unique: true, expireAfterSeconds: 3600, clustered: true },
    ]);
  });

  it.each([
    [{ clusteredIndex: true }, 5979703, "The 'clusteredIndex' legacy format {clusteredIndex: <bool>} is only supported for specific internal collections and vice versa"],
    [{ clusteredIndex: null }, 14, "BSON field 'create.clusteredIndex' is the wrong type 'null', expected types '[bool, object']"],
    [{ clusteredIndex: { unique: true } }, 40414, "BSON field 'create.clusteredIndex.key' is missing but a required field"],
    [{ clusteredIndex: { key: { _id: 1 } } }, 40414, "BSON field 'create.clusteredIndex.unique' is missing but a required field"],
    [{ clusteredIndex: { ...CLUSTERED, other: 1 } }, 40415, "BSON field 'create.clusteredIndex.other' is an unknown field."],
    [{ clusteredIndex: { key: { _id: 1 }, unique: false } }, 5979700, 'The clusteredIndex option requires unique: true to be specified'],
    [{ clusteredIndex: { key: { x: 1 }, unique: true } }, 197, 'The clusteredIndex option is only supported for key: {_id: 1}'],
    [
      { clusteredIndex: { ...CLUSTERED, v: 1 } },
      5979704,
      "Invalid clusteredIndex specification { v: 1, key: { _id: 1 }, name: \"_id_\", unique: true }; cannot create a clusteredIndex with v=1",
    ],
    [
      { clusteredIndex: CLUSTERED, capped: true, size: 4096 },
      6049200,
      "'size' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?",
    ],
    [{ clusteredIndex: CLUSTERED, max: 10 }, 6049204, "'max' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?"],
    [{ clusteredIndex: CLUSTERED, viewOn: 'x', pipeline: [] }, 6026500, "The 'clusteredIndex' option is not supported with views"],
    [{ clusteredIndex: CLUSTERED, idIndex: { key: { _id: 1 }, name: '_id_' } }, 72, "The 'clusteredIndex' option is not supported with the 'idIndex' option"],
    [{ clusteredIndex: CLUSTERED, expireAfterSeconds: 99999999999 }, 72, "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number"],
  ])('%j fails with %i', async (options, code, errmsg) => {
    const err = await errorOf(() => db.command({ create: 'bad', ...options }));
    expect([err.code, err.errmsg]).toEqual([code, errmsg]);
  });
});

describe('a clustered collection', () => {
  beforeAll(async () => {
    await db.command({ create: 'c2', clusteredIndex: CLUSTERED });
    await db.collection('c2').insertMany([{ _id: 'c', x: 1 }, { _id: 'a', x: 1 }, { _id: 'b', x: 2 }]);
  });

  it('reads in _id order', async () => {
    expect(await db.collection('c2').find({}, { projection: { _id: 1 } }).toArray()).toEqual([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
    expect(await db.collection('c2').find({ x: 1 }, { projection: { _id: 1 } }).sort({ $natural: -1 }).toArray()).toEqual([{ _id: 'c' }, { _id: 'a' }]);
  });

  it('keeps its cluster key', async () => {
    for (const index of ['_id_', { _id: 1 }]) {
      const err = await errorOf(() => db.command({ dropIndexes: 'c2', index }));
      expect([err.code, err.errmsg]).toEqual([5979800, 'It is not possible to drop the clustered index']);
    }
    const hide = await errorOf(() => db.command({ collMod: 'c2', index: { name: '_id_', hidden: true } }));
    expect([hide.code, hide.errmsg]).toEqual([6011800, 'The clustered index is not hideable']);
    const ttl = await errorOf(() => db.command({ collMod: 'c2', index: { keyPattern: { _id: 1 }, expireAfterSeconds: 5 } }));
    expect(ttl.code).toBe(27);
    const reply = await db.command({ createIndexes: 'c2', indexes: [{ key: { _id: 1 }, name: 'again' }] });
    expect([reply.numIndexesBefore, reply.numIndexesAfter]).toEqual([0, 0]);
  });

  it('answers a second NaN or infinite _id with the record store errors', async () => {
    await db.collection('c2').insertMany([{ _id: NaN }, { _id: -Infinity }]);
    const nan = await errorOf(() => db.collection('c2').insertOne({ _id: new Decimal128('NaN') }));
    expect([nan.code, nan.errmsg]).toEqual([50819, 'Cannot insert a second record with a NaN _id into a clustered collection']);
    const inf = await errorOf(() => db.collection('c2').insertOne({ _id: -Infinity }));
    expect([inf.code, inf.errmsg]).toEqual([50826, 'Cannot insert a second record with an infinite _id into a clustered collection']);
    const plain = await errorOf(() => db.collection('c2').insertOne({ _id: 'a' }));
    expect(plain.code).toBe(11000);
    await db.collection('c2').deleteMany({ _id: { $in: [NaN, -Infinity] } });
  });

  it('refuses an _id beyond the RecordId limit', async () => {
    const err = await errorOf(() => db.collection('c2').insertOne({ _id: new Binary(Buffer.alloc(8 * 1024 * 1024 - 6)) }));
    expect([err.code, err.errmsg]).toEqual([5894900, 'Size of RecordId is above limit of 8388608 bytes']);
  });
});

describe('the collection TTL', () => {
  it('removes documents whose _id date is expireAfterSeconds old; collMod turns it off', async () => {
    await db.command({ create: 'c3', clusteredIndex: CLUSTERED });
    const now = ((await db.admin().command({ mayflyClock: 1 })).now as Date).getTime();
    await db.collection('c3').insertMany([{ _id: new Date(now - 10_000) }, { _id: new Date(now + 60_000) }, { _id: 'never' }]);
    await db.command({ collMod: 'c3', expireAfterSeconds: 5 });
    await runPass(h.client);
    expect(await db.collection('c3').countDocuments()).toBe(2);
    await db.command({ collMod: 'c3', expireAfterSeconds: 'off' });
    await advance(h.client, 120);
    await runPass(h.client);
    expect(await db.collection('c3').countDocuments()).toBe(2);
  });
});
