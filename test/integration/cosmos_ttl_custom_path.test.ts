/**
 * EnableTtlOnCustomPath (src/ttl/policies/cosmos_custom_path.ts): in cosmos mode with the
 * capability, one TTL index on a field other than `_ts` per collection. A document expires
 * `expireAfterSeconds` after its field's instant (a Date, or a number read as Unix milliseconds;
 * the earliest of an array), invisible from that instant; a missing or wrong-typed field never
 * expires; `_ts` is then not usable for TTL. Without the capability: 2, "supported on '_ts' field only".
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Double, Int32, Long } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { advance, ids, runPass, ttlMetrics } from './ttl_helpers.js';

const TS_ONLY = "The 'expireAfterSeconds' option is supported on '_ts' field only.";
const ONE_TTL = 'A collection can have only one TTL index: on _ts or, with EnableTtlOnCustomPath, on one other field.';

describe('with EnableTtlOnCustomPath', () => {
  let h: Harness;
  let t0: number;
  beforeAll(async () => {
    h = await startHarness({ compat: 'cosmos', cosmos: { capabilities: ['EnableTtlOnCustomPath'] }, clock: 'manual' });
    t0 = Number((await h.client.db('admin').command({ mayflyClock: 1 })).nowMillis);
  });
  afterAll(async () => {
    await h.close();
  });

  test('Dates and Unix-millisecond numbers expire at field + expireAfterSeconds, invisible at once', async () => {
    const c = h.db.collection('c');
    expect(await c.createIndex({ at: 1 }, { expireAfterSeconds: 10 })).toBe('at_1');
    await c.insertMany([
      { _id: 'date', at: new Date(t0) },
      { _id: 'int64', at: Long.fromNumber(t0 + 5_000) },
      { _id: 'double', at: new Double(t0 + 20_000) },
      { _id: 'array', at: ['x', new Date(t0 + 60_000), t0 + 1_000] },
      { _id: 'int32', at: new Int32(1000) }, // 1970: long expired
      { _id: 'missing' },
      { _id: 'string', at: String(t0) },
      { _id: 'nested', at: { t: new Date(t0) } },
    ]);
    expect(await ids(h.db, 'c')).toEqual(['date', 'int64', 'double', 'array', 'missing', 'string', 'nested']);
    await advance(h.client, 9);
    expect(await ids(h.db, 'c')).toEqual(['date', 'int64', 'double', 'array', 'missing', 'string', 'nested']);
    await advance(h.client, 1); // t0 + 10 s: 'date' expires
    expect(await ids(h.db, 'c')).toEqual(['int64', 'double', 'array', 'missing', 'string', 'nested']);
    await advance(h.client, 1); // t0 + 11 s: the array's earliest number (t0 + 1 s)
    expect(await ids(h.db, 'c')).toEqual(['int64', 'double', 'missing', 'string', 'nested']);
    await advance(h.client, 4); // t0 + 15 s
    expect(await ids(h.db, 'c')).toEqual(['double', 'missing', 'string', 'nested']);
    await advance(h.client, 15); // t0 + 30 s
    expect(await ids(h.db, 'c')).toEqual(['missing', 'string', 'nested']);
    expect(await h.db.collection('c').countDocuments()).toBe(3);
    const pass = await runPass(h.client);
    expect(pass.deleted).toEqual(Long.fromNumber(5));
    expect((await ttlMetrics(h.client)).deletedDocuments).toEqual(Long.fromNumber(5));
  });

  test('one TTL index per collection: a second one, or _ts, is 2 BadValue', async () => {
    const c = h.db.collection('one');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 10 });
    expect(await errorOf(() => c.createIndex({ other: 1 }, { expireAfterSeconds: 10 }))).toMatchObject({ code: 2, errmsg: ONE_TTL });
    expect(await errorOf(() => c.createIndex({ _ts: 1 }, { expireAfterSeconds: 10 }))).toMatchObject({ code: 2, errmsg: ONE_TTL });
    const ts = h.db.collection('ts_first');
    await ts.createIndex({ _ts: 1 }, { expireAfterSeconds: 10 });
    expect(await errorOf(() => ts.createIndex({ at: 1 }, { expireAfterSeconds: 10 }))).toMatchObject({ code: 2, errmsg: ONE_TTL });
  });
});

describe('without the capability, and in mongodb mode', () => {
  test('cosmos without EnableTtlOnCustomPath: 2 BadValue, _ts only', async () => {
    const h = await startHarness({ compat: 'cosmos' });
    try {
      const err = await errorOf(() => h.db.collection('c').createIndex({ at: 1 }, { expireAfterSeconds: 10 }));
      expect(err).toMatchObject({ code: 2, codeName: 'BadValue', errmsg: TS_ONLY });
    } finally {
      await h.close();
    }
  });

  test('mongodb mode: native TTL, numbers never expire, expired Dates stay visible until a pass', async () => {
    const h = await startHarness({ clock: 'manual' });
    try {
      const t0 = Number((await h.client.db('admin').command({ mayflyClock: 1 })).nowMillis);
      const c = h.db.collection('c');
      await c.createIndex({ at: 1 }, { expireAfterSeconds: 10 });
      await c.insertMany([{ _id: 'date', at: new Date(t0) }, { _id: 'number', at: t0 }]);
      await advance(h.client, 11);
      expect(await ids(h.db, 'c')).toEqual(['date', 'number']);
      await runPass(h.client);
      expect(await ids(h.db, 'c')).toEqual(['number']);
    } finally {
      await h.close();
    }
  });
});
