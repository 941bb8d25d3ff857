/**
 * Versioned collections on the shared TTL engine (TTL.md "Versioned collections", seed 002,
 * ttl-reference.md §1.4 and §5), driven by the manual clock:
 *
 * - the seed's worked examples with their exact timestamps: version 1468944000000 with TTL 86400,
 *   and the 86400 s offset window at 2016-07-21 00:00 UTC+8 where 1468943999000 fails the row;
 * - the write range `[max(now − maxTimeDeviation, now − timeToLive), now + maxTimeDeviation)`,
 *   a failing column failing the whole row with nothing written;
 * - visibility: expired and over-maxVersions versions unreadable at once, rows with no readable
 *   column invisible to find/aggregate/count; raising the limits before a purge brings versions
 *   back, after a reaper pass they are gone for good;
 * - the shared reaper purging unreadable versions and empty rows, counted in
 *   `serverStatus().metrics.ttl` (`deletedDocuments` for rows, `deletedVersions` for versions).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Long } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { advance, runPass, ttlMetrics } from './ttl_helpers.js';
import { DAY_MS, T_2016_07_21, T_2016_07_22, V_2016_07_20, createVersioned, getRow, putRow, setClock, version } from './versioned_helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<Harness> {
  h = await startHarness({ clock: 'manual' });
  return h;
}

const invalidTimestamp = (cell: string, ts: number, min: number, max: number) =>
  `Invalid timestamp. Cell:${cell}. Timestamp:${ts}. MinTimestamp:${min}. MaxTimestamp:${max}.`;

describe("the seed's TTL example: version 1468944000000, TTL 86400", () => {
  test('the version expires at 2016-07-21 00:00 UTC+8: readable at that instant, unreadable 1 ms later; older versions already expired', async () => {
    const h = await start();
    await createVersioned(h.db, 't', { timeToLive: 86400 });
    // One second before 2016-07-21 00:00 UTC+8, write a version one second older than the seed's.
    setClock(h, T_2016_07_21 - 1000);
    await putRow(h.db, 't', { _id: 'row', older: 'o' }, { older: V_2016_07_20 - 1000 });
    setClock(h, T_2016_07_21);
    // At 2016-07-21 00:00 UTC+8 the write range starts at exactly 1468944000000 (TTL and offset).
    await putRow(h.db, 't', { _id: 'row', seed: 's' }, { seed: V_2016_07_20 });
    // "every attribute version below 1468944000000 has expired"; 1468944000000 itself is readable.
    expect(await h.db.collection('t').findOne({ _id: 'row' })).toEqual({ _id: 'row', seed: 's' });
    expect(await getRow(h.db, 't', 'row')).toEqual({ _id: 'row', seed: [version('s', V_2016_07_20)] });
    h.server.clock.advance(1);
    expect(await h.db.collection('t').findOne({ _id: 'row' })).toBe(null);
    expect(await getRow(h.db, 't', 'row')).toBe(null);
    expect(await h.db.collection('t').countDocuments()).toBe(0);
    // Asynchronous deletion: the reaper purges both versions and the row.
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(2), ok: 1 });
  });

  test('the same version written through mayflyAdvanceClock and an ordinary insert expires one TTL later', async () => {
    const h = await start();
    await createVersioned(h.db, 't', { timeToLive: 86400 });
    setClock(h, V_2016_07_20);
    await h.db.collection('t').insertOne({ _id: 1, price: 10 });
    expect(await getRow(h.db, 't', 1)).toEqual({ _id: 1, price: [version(10, V_2016_07_20)] });
    await advance(h.client, 86400);
    expect(h.server.clock.now()).toBe(T_2016_07_21);
    expect(await h.db.collection('t').find().toArray()).toEqual([{ _id: 1, price: 10 }]);
    await advance(h.client, 0.001);
    expect(await h.db.collection('t').find().toArray()).toEqual([]);
  });
});

describe('the embedding example of docs/versioned.md', () => {
  test('at 2016-07-21 00:00 UTC+8 with timeToLive 86400: 1468943999000 is refused, 1468944000000 is read, then expires', async () => {
    const h = await start();
    setClock(h, T_2016_07_21);
    await h.db.command({ create: 'prices', versioned: { timeToLive: 86400 } });
    await h.db.command({ putRow: 'prices', row: { _id: 'apple', price: 10 }, timestamps: { price: 1468944000000 } });
    const err = await errorOf(() => h.db.command({ putRow: 'prices', row: { _id: 'pear', price: 1 }, timestamps: { price: 1468943999000 } }));
    expect(err.errmsg).toBe('Invalid timestamp. Cell:price. Timestamp:1468943999000. MinTimestamp:1468944000000. MaxTimestamp:1469116800000.');
    expect(await h.db.collection('prices').findOne()).toEqual({ _id: 'apple', price: 10 });
    h.server.clock.advance(1);
    expect(await h.db.collection('prices').findOne()).toBe(null);
  });
});

describe("the seed's offset example: maxTimeDeviation 86400 at 2016-07-21 00:00 UTC+8", () => {
  test('versions in [1468944000000, 1469116800000) are writable; 1468943999000 fails the row', async () => {
    const h = await start();
    await createVersioned(h.db, 'o', { maxVersions: 10 });
    setClock(h, T_2016_07_21);
    const err = await errorOf(() => putRow(h.db, 'o', { _id: 1, price: 1 }, { price: 1468943999000 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([2, 'BadValue', invalidTimestamp('price', 1468943999000, V_2016_07_20, T_2016_07_22)]);
    expect(await getRow(h.db, 'o', 1)).toBe(null);
    // The seed says "greater than" 1468944000000; its formula (and Mayfly) include the lower bound.
    await putRow(h.db, 'o', { _id: 1, price: 2 }, { price: V_2016_07_20 + 1000 });
    await putRow(h.db, 'o', { _id: 1, price: 3 }, { price: V_2016_07_20 });
    await putRow(h.db, 'o', { _id: 1, price: 4 }, { price: T_2016_07_22 - 1 });
    const high = await errorOf(() => putRow(h.db, 'o', { _id: 1, price: 5 }, { price: T_2016_07_22 }));
    expect([high.code, high.errmsg]).toEqual([2, invalidTimestamp('price', T_2016_07_22, V_2016_07_20, T_2016_07_22)]);
    expect(await getRow(h.db, 'o', 1)).toEqual({
      _id: 1,
      price: [version(4, T_2016_07_22 - 1), version(2, V_2016_07_20 + 1000), version(3, V_2016_07_20)],
    });
  });

  test('one column outside the range fails the whole row: nothing written, the existing row unchanged', async () => {
    const h = await start();
    await createVersioned(h.db, 'o', { maxVersions: 5 });
    setClock(h, T_2016_07_21);
    await h.db.collection('o').insertOne({ _id: 1, a: 'a0', b: 'b0' });
    const err = await errorOf(() => putRow(h.db, 'o', { _id: 1, a: 'a1', b: 'b1', c: 'c1' }, { a: T_2016_07_21 - 5, b: T_2016_07_21 + 2 * DAY_MS }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([2, 'BadValue', invalidTimestamp('b', T_2016_07_21 + 2 * DAY_MS, V_2016_07_20, T_2016_07_22)]);
    expect(await getRow(h.db, 'o', 1)).toEqual({ _id: 1, a: [version('a0', T_2016_07_21)], b: [version('b0', T_2016_07_21)] });
    const fresh = await errorOf(() => putRow(h.db, 'o', { _id: 2, a: 1, b: 2 }, { b: 0 }));
    expect(fresh.errmsg).toBe(invalidTimestamp('b', 0, V_2016_07_20, T_2016_07_22));
    expect(await h.db.collection('o').countDocuments()).toBe(1);
  });

  test('the lower bound is now − timeToLive when that is later than now − maxTimeDeviation; collMod moves the range', async () => {
    const h = await start();
    await createVersioned(h.db, 'o', { timeToLive: 86400, maxTimeDeviation: 3 * 86400 });
    setClock(h, T_2016_07_21);
    const err = await errorOf(() => putRow(h.db, 'o', { _id: 1, a: 1 }, { a: V_2016_07_20 - 1 }));
    expect(err.errmsg).toBe(invalidTimestamp('a', V_2016_07_20 - 1, V_2016_07_20, T_2016_07_21 + 3 * DAY_MS));
    await h.db.command({ collMod: 'o', versioned: { maxTimeDeviation: 60 } });
    const narrow = await errorOf(() => putRow(h.db, 'o', { _id: 1, a: 1 }, { a: T_2016_07_21 + 60_000 }));
    expect(narrow.errmsg).toBe(invalidTimestamp('a', T_2016_07_21 + 60_000, T_2016_07_21 - 60_000, T_2016_07_21 + 60_000));
    await putRow(h.db, 'o', { _id: 1, a: 1 }, { a: T_2016_07_21 - 60_000 });
    expect(await getRow(h.db, 'o', 1)).toEqual({ _id: 1, a: [version(1, T_2016_07_21 - 60_000)] });
  });
});

describe('visibility', () => {
  test('each column shows its newest readable version; columns expire one by one, then the row', async () => {
    const h = await start();
    await createVersioned(h.db, 'v', { timeToLive: 86400, maxVersions: 3 });
    const t0 = h.server.clock.now();
    const c = h.db.collection('v');
    await c.insertMany([{ _id: 1, a: 'a0', b: 'b0' }, { _id: 2, x: 1 }]);
    await advance(h.client, 3600);
    await c.updateOne({ _id: 1 }, { $set: { a: 'a1' } });
    await advance(h.client, 86400 - 3600);
    // t0 + 1 day: nothing has expired yet (age = TTL).
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 'a1', b: 'b0' }, { _id: 2, x: 1 }]);
    await advance(h.client, 0.001);
    // b0 and x (written at t0) are past TTL: row 2 has no readable column and is invisible.
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 'a1' }]);
    expect(await c.countDocuments()).toBe(1);
    expect(await c.aggregate([{ $project: { _id: 1, a: 1, b: 1 } }]).toArray()).toEqual([{ _id: 1, a: 'a1' }]);
    expect(await c.find({ b: 'b0' }).toArray()).toEqual([]);
    expect(await getRow(h.db, 'v', 1)).toEqual({ _id: 1, a: [version('a1', t0 + 3_600_000)] });
    expect(await getRow(h.db, 'v', 2)).toBe(null);
    // An invisible row does not match updates or deletes.
    expect((await c.updateOne({ _id: 2 }, { $set: { x: 2 } })).matchedCount).toBe(0);
    expect((await c.deleteMany({})).deletedCount).toBe(1);
  });

  test('versions beyond maxVersions are unreadable at once', async () => {
    const h = await start();
    await createVersioned(h.db, 'm', { maxVersions: 2 });
    const t0 = h.server.clock.now();
    const c = h.db.collection('m');
    for (let i = 0; i < 4; i++) {
      await c.updateOne({ _id: 1 }, { $set: { v: i } }, { upsert: true });
      h.server.clock.advance(10);
    }
    expect(await getRow(h.db, 'm', 1)).toEqual({ _id: 1, v: [version(3, t0 + 30), version(2, t0 + 20)] });
    expect(await getRow(h.db, 'm', 1, { maxVersions: 5 })).toEqual({ _id: 1, v: [version(3, t0 + 30), version(2, t0 + 20)] });
    await h.db.command({ collMod: 'm', versioned: { maxVersions: 1 } });
    expect(await getRow(h.db, 'm', 1)).toEqual({ _id: 1, v: [version(3, t0 + 30)] });
    expect(await c.findOne()).toEqual({ _id: 1, v: 3 });
  });

  test('an insert may take the _id of an invisible row: it replaces it, counted as a TTL deletion', async () => {
    const h = await start();
    await createVersioned(h.db, 'r', { timeToLive: 86400 });
    await h.db.collection('r').insertOne({ _id: 1, a: 1, b: 2 });
    await advance(h.client, 86400.001);
    await h.db.collection('r').insertOne({ _id: 1, c: 3 });
    expect(await h.db.collection('r').find().toArray()).toEqual([{ _id: 1, c: 3 }]);
    const metrics = await ttlMetrics(h.client);
    expect([metrics.deletedDocuments, metrics.deletedVersions]).toEqual([Long.fromNumber(1), Long.fromNumber(2)]);
  });
});

describe('resurrection before a purge, permanence after it', () => {
  test('timeToLive: lowering hides at once, raising before the pass brings the versions back', async () => {
    const h = await start();
    await createVersioned(h.db, 'ttl', { maxVersions: 5 });
    const t0 = h.server.clock.now();
    const c = h.db.collection('ttl');
    await c.insertOne({ _id: 1, a: 'old' });
    await advance(h.client, 2 * 86400);
    await c.updateOne({ _id: 1 }, { $set: { a: 'new' } });
    await c.insertOne({ _id: 2, z: 'z' });
    const t1 = t0 + 2 * DAY_MS;
    await advance(h.client, 10);
    await h.db.command({ collMod: 'ttl', versioned: { timeToLive: 86400 } });
    expect(await getRow(h.db, 'ttl', 1)).toEqual({ _id: 1, a: [version('new', t1)] });
    await h.db.command({ collMod: 'ttl', versioned: { timeToLive: 3 * 86400 } });
    expect(await getRow(h.db, 'ttl', 1)).toEqual({ _id: 1, a: [version('new', t1), version('old', t0)] });
    await h.db.command({ collMod: 'ttl', versioned: { timeToLive: -1 } });
    expect(await getRow(h.db, 'ttl', 1)).toEqual({ _id: 1, a: [version('new', t1), version('old', t0)] });
    // Lower again and let the reaper purge: raising the TTL no longer brings 'old' back.
    await h.db.command({ collMod: 'ttl', versioned: { timeToLive: 86400 } });
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(1), ok: 1 });
    await h.db.command({ collMod: 'ttl', versioned: { timeToLive: -1 } });
    expect(await getRow(h.db, 'ttl', 1)).toEqual({ _id: 1, a: [version('new', t1)] });
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 'new' }, { _id: 2, z: 'z' }]);
  });

  test('a whole row hidden by TTL comes back before the pass, and is gone for good after it', async () => {
    const h = await start();
    await createVersioned(h.db, 'rows', { timeToLive: 86400 });
    const c = h.db.collection('rows');
    await c.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    await advance(h.client, 43200);
    await c.insertOne({ _id: 3, a: 3 });
    await advance(h.client, 43200.001);
    expect(await c.find().toArray()).toEqual([{ _id: 3, a: 3 }]);
    await h.db.command({ collMod: 'rows', versioned: { timeToLive: 2 * 86400 } });
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }, { _id: 3, a: 3 }]);
    await h.db.command({ collMod: 'rows', versioned: { timeToLive: 86400 } });
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(2), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(2), ok: 1 });
    await h.db.command({ collMod: 'rows', versioned: { timeToLive: 2 * 86400 } });
    expect(await c.find().toArray()).toEqual([{ _id: 3, a: 3 }]);
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(2),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(1),
      subPasses: Long.fromNumber(1),
      deletedVersions: Long.fromNumber(2),
    });
  });

  test('maxVersions: raising it before the pass makes older versions readable; after the pass they are gone', async () => {
    const h = await start();
    await createVersioned(h.db, 'mv');
    const t0 = h.server.clock.now();
    const c = h.db.collection('mv');
    await c.insertOne({ _id: 1, v: 'v0' });
    h.server.clock.advance(1);
    await c.updateOne({ _id: 1 }, { $set: { v: 'v1' } });
    h.server.clock.advance(1);
    await c.updateOne({ _id: 1 }, { $set: { v: 'v2' } });
    expect(await getRow(h.db, 'mv', 1)).toEqual({ _id: 1, v: [version('v2', t0 + 2)] });
    await h.db.command({ collMod: 'mv', versioned: { maxVersions: 3 } });
    expect(await getRow(h.db, 'mv', 1)).toEqual({ _id: 1, v: [version('v2', t0 + 2), version('v1', t0 + 1), version('v0', t0)] });
    await h.db.command({ collMod: 'mv', versioned: { maxVersions: 2 } });
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(1), ok: 1 });
    await h.db.command({ collMod: 'mv', versioned: { maxVersions: 3 } });
    expect(await getRow(h.db, 'mv', 1)).toEqual({ _id: 1, v: [version('v2', t0 + 2), version('v1', t0 + 1)] });
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(0), ok: 1 });
  });
});

describe('the shared reaper', () => {
  test('purges versioned collections beside Cosmos TTL in the same pass; nothing is purged before its time', async () => {
    const h = await start();
    await createVersioned(h.db, 'ver', { timeToLive: 86400 });
    const cosmos = h.db.collection('cosmos');
    await cosmos.createIndex({ _ts: 1 }, { expireAfterSeconds: 86400 });
    await cosmos.insertOne({ _id: 'c' });
    await h.db.collection('ver').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(0), ok: 1 });
    await advance(h.client, 86400);
    await h.db.collection('ver').updateOne({ _id: 2 }, { $set: { b: 'b' } });
    await advance(h.client, 1);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(2), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(2), ok: 1 });
    expect(await h.db.collection('ver').find().toArray()).toEqual([{ _id: 2, b: 'b' }]);
    expect(await getRow(h.db, 'ver', 2, {})).toEqual({ _id: 2, b: [version('b', h.server.clock.now() - 1000)] });
    expect(await cosmos.countDocuments()).toBe(0);
  });

  test('the background monitor purges too (ttlMonitorSleepSecs 1)', async () => {
    h = await startHarness({ clock: 'manual', parameters: { ttlMonitorSleepSecs: 1 } });
    await createVersioned(h.db, 'bg', { timeToLive: 86400 });
    await h.db.collection('bg').insertOne({ _id: 1, a: 1 });
    await advance(h.client, 86401);
    let metrics = await ttlMetrics(h.client);
    for (let tries = 0; (metrics.deletedDocuments as Long).toNumber() === 0 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await ttlMetrics(h.client);
    }
    expect([metrics.deletedDocuments, metrics.deletedVersions]).toEqual([Long.fromNumber(1), Long.fromNumber(1)]);
  });
});
