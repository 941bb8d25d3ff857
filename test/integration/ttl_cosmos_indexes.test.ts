/**
 * The Cosmos container TTL as an index on `_ts` (TTL.md): the createIndexes reply (`_t` first in
 * cosmos mode), the allowed values with their exact errors, collMod changing the default at once,
 * dropping the index turning TTL off, and `--compat cosmos` refusing TTL on any other field.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Decimal128, Double, Int32, Long, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { advance, ids, rawCommand, rawIndexes, runPass } from './ttl_helpers.js';

const BAD_TS = (shown: string) =>
  `The 'expireAfterSeconds' option on '_ts' must be -1 (expiry on, no default) or an integer from 1 to 2147483647, but received ${shown}.`;
const TS_ONLY = "The 'expireAfterSeconds' option is supported on '_ts' field only.";

describe('createIndexes on _ts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ compat: 'cosmos', clock: 'manual' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('the cosmos reply opens with _t: CreateIndexesResponse', async () => {
    const reply = await h.db.command({ createIndexes: 'reply', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 10 }] });
    expect(reply).toEqual({ _t: 'CreateIndexesResponse', createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2, ok: 1 });
    expect(Object.keys(reply)).toEqual(['_t', 'createdCollectionAutomatically', 'numIndexesBefore', 'numIndexesAfter', 'ok']);
    const again = await h.db.command({ createIndexes: 'reply', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 10 }] });
    expect(again).toEqual({ _t: 'CreateIndexesResponse', numIndexesBefore: 2, numIndexesAfter: 2, note: 'all indexes already exist', ok: 1 });
    const plain = await h.db.command({ createIndexes: 'reply', indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(Object.keys(plain)).toEqual(['_t', 'createdCollectionAutomatically', 'numIndexesBefore', 'numIndexesAfter', 'ok']);
  });

  test.each([
    ['-1', -1, -1],
    ['1', 1, 1],
    ['Int64 3600', Long.fromNumber(3600), 3600],
    ['Double 3600.0', new Double(3600), 3600],
    ['Decimal128 "3600"', Decimal128.fromString('3600'), 3600],
    ['Int64 -1', Long.fromNumber(-1), -1],
    ['2147483647', 2147483647, 2147483647],
  ])('expireAfterSeconds %s is accepted and stored as Int32 %s', async (_name, value, stored) => {
    const name = `ok_${stored}_${String(_name).replace(/\W/g, '')}`;
    await h.db.command({ createIndexes: name, indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: value }] });
    expect((await rawIndexes(h.db, name))[1]).toEqual({ v: new Int32(2), key: { _ts: new Int32(1) }, name: '_ts_1', expireAfterSeconds: new Int32(stored as number) });
  });

  test.each([
    ['0', 0, '0'],
    ['-2', -2, '-2'],
    ['60.5', 60.5, '60.5'],
    ['Decimal128 60.5', Decimal128.fromString('60.5'), '60.5'],
    ['2147483648', 2147483648, '2147483648.0'],
    ['Int64 2147483648', Long.fromString('2147483648'), '2147483648'],
    ['NaN', NaN, 'nan.0'],
    ['Infinity', Infinity, 'inf.0'],
    ['"60"', '60', '"60"'],
    ['null', null, 'null'],
    ['true', true, 'true'],
  ])('expireAfterSeconds %s is refused: 2 BadValue naming the allowed values', async (_name, value, shown) => {
    const err = await errorOf(() => h.db.command({ createIndexes: 'bad', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: value }] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 2, codeName: 'BadValue', errmsg: BAD_TS(shown) });
  });

  test('a different expireAfterSeconds on the existing _ts index is 85 IndexOptionsConflict', async () => {
    await h.db.command({ createIndexes: 'conflict', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 }] });
    const err = await errorOf(() => h.db.command({ createIndexes: 'conflict', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 30 }] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 85,
      codeName: 'IndexOptionsConflict',
      errmsg:
        'An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { _ts: 1 }, name: "_ts_1", expireAfterSeconds: 30 }, existing index: { v: 2, key: { _ts: 1 }, name: "_ts_1", expireAfterSeconds: 60 }',
    });
  });

  test.each([
    ['a Date field', { key: { expireAt: 1 }, name: 'expireAt_1', expireAfterSeconds: 0 }],
    ['a nested field', { key: { 'meta.at': 1 }, name: 'meta.at_1', expireAfterSeconds: 60 }],
    ['a compound key holding _ts', { key: { _ts: 1, a: 1 }, name: '_ts_1_a_1', expireAfterSeconds: 60 }],
    ['a negative value on another field', { key: { t: 1 }, name: 't_1', expireAfterSeconds: -1 }],
  ])('--compat cosmos refuses a TTL index on %s with the Cosmos message', async (_name, spec) => {
    const err = await errorOf(() => h.db.command({ createIndexes: 'other', indexes: [spec] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 2, codeName: 'BadValue', errmsg: TS_ONLY });
    expect(await h.db.listCollections({ name: 'other' }).toArray()).toEqual([]);
  });
});

describe('collMod and dropIndexes on the _ts index', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ compat: 'cosmos', clock: 'manual' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('collMod changes the container default at once, by key pattern or name, with Int64 old/new', async () => {
    const c = h.db.collection('mod');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 600 });
    await c.insertMany([{ _id: 'a' }, { _id: 'own', ttl: 1000 }]);
    await advance(h.client, 100);
    expect(await rawCommand(h.db, { collMod: 'mod', index: { keyPattern: { _ts: 1 }, expireAfterSeconds: 50 } })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(600),
      expireAfterSeconds_new: Long.fromNumber(50),
      ok: new Double(1),
    });
    // Lowered below the documents' age: gone at once, before any pass; a document's own ttl still wins.
    expect(await ids(h.db, 'mod')).toEqual(['own']);
    // Raised again before the reaper ran: the default document is back (expiry is computed at read time).
    expect(await rawCommand(h.db, { collMod: 'mod', index: { name: '_ts_1', expireAfterSeconds: -1 } })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(50),
      expireAfterSeconds_new: Long.fromNumber(-1),
      ok: new Double(1),
    });
    expect(await ids(h.db, 'mod')).toEqual(['a', 'own']);
    expect((await rawIndexes(h.db, 'mod'))[1]).toEqual({ v: new Int32(2), key: { _ts: new Int32(1) }, name: '_ts_1', expireAfterSeconds: new Int32(-1) });
    await advance(h.client, 900); // t = 1000: the document ttl applies under container -1
    expect(await ids(h.db, 'mod')).toEqual(['a']);
    expect(await rawCommand(h.db, { collMod: 'mod', index: { name: '_ts_1', expireAfterSeconds: Long.fromNumber(1000) } })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(-1),
      expireAfterSeconds_new: Long.fromNumber(1000),
      ok: new Double(1),
    });
    expect(await ids(h.db, 'mod')).toEqual([]);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(2), subPasses: Long.fromNumber(1), ok: 1 });
  });

  test('a cursor opened before a collMod follows the new container TTL in its getMore', async () => {
    const c = h.db.collection('cursor_mod');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 600 });
    await c.insertMany(Array.from({ length: 6 }, (_, i) => ({ _id: i })));
    const cursor = c.find({}, { batchSize: 2 });
    expect(await cursor.next()).toEqual({ _id: 0 });
    await advance(h.client, 100);
    await h.db.command({ collMod: 'cursor_mod', index: { name: '_ts_1', expireAfterSeconds: 50 } });
    expect(await cursor.toArray()).toEqual([{ _id: 1 }]); // already in the first batch
  });

  test.each([
    ['0', 0, '0'],
    ['-2', -2, '-2'],
    ['60.5', 60.5, '60.5'],
    ['2147483648', 2147483648, '2147483648.0'],
    ['NaN', NaN, 'nan.0'],
  ])('collMod to %s on _ts is refused with 2 BadValue', async (_name, value, shown) => {
    await h.db.collection('modbad').createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
    const err = await errorOf(() => h.db.command({ collMod: 'modbad', index: { keyPattern: { _ts: 1 }, expireAfterSeconds: value } }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 2, codeName: 'BadValue', errmsg: BAD_TS(shown) });
    expect((await rawIndexes(h.db, 'modbad'))[1]!.expireAfterSeconds).toEqual(new Int32(60));
  });

  test('collMod converts a plain _ts index into the container TTL (no _old)', async () => {
    const c = h.db.collection('convert');
    await c.createIndex({ _ts: 1 });
    await c.insertOne({ _id: 1 });
    await advance(h.client, 100);
    expect(await ids(h.db, 'convert')).toEqual([1]);
    expect(await rawCommand(h.db, { collMod: 'convert', index: { keyPattern: { _ts: 1 }, expireAfterSeconds: 30 } })).toEqual({
      expireAfterSeconds_new: Long.fromNumber(30),
      ok: new Double(1),
    });
    expect(await ids(h.db, 'convert')).toEqual([]);
  });

  test('--compat cosmos: collMod making any other index TTL is refused with the Cosmos message', async () => {
    await h.db.collection('convert_other').createIndex({ t: 1 });
    const err = await errorOf(() => h.db.command({ collMod: 'convert_other', index: { name: 't_1', expireAfterSeconds: 30 } }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 2, codeName: 'BadValue', errmsg: TS_ONLY });
    expect((await rawIndexes(h.db, 'convert_other'))[1]).toEqual({ v: new Int32(2), key: { t: new Int32(1) }, name: 't_1' });
  });

  test('dropping the _ts index turns TTL off', async () => {
    await runPass(h.client); // reap what the tests above left expired
    const c = h.db.collection('dropped');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
    await c.insertMany([{ _id: 1 }, { _id: 2, ttl: 5 }]);
    await advance(h.client, 30);
    expect(await ids(h.db, 'dropped')).toEqual([1]);
    await c.dropIndex('_ts_1');
    await advance(h.client, 10 * 365 * 86400);
    expect(await ids(h.db, 'dropped')).toEqual([1, 2]);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'dropped')).toEqual([1, 2]);
    const docs: Document[] = await c.find().toArray();
    expect(docs).toEqual([{ _id: 1 }, { _id: 2, ttl: 5 }]);
  });
});
