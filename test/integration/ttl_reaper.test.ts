/**
 * The reaper, its parameters and metrics, and the test clock (TTL.md, both modes):
 * getParameter/setParameter and startup values of the TTL parameters with mongod's errors,
 * `serverStatus().metrics.ttl` as Int64, one pass at a time, `mayflyAdvanceClock`,
 * `mayflyRunTtlPass`, `mayflyClock` over the wire and `clock.advance` / `runTtlPass` in the
 * embedding API, and the background reaper running by itself on the real clock.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Long, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { ids, runPass, sleep, ttlMetrics } from './ttl_helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Polls `check` every 50 ms until it holds or `ms` elapse; returns whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

describe('TTL parameters', () => {
  test('getParameter shows mongod 8.2 defaults; setParameter answers { was }', async () => {
    h = await startHarness();
    const admin = h.client.db('admin');
    expect(
      await admin.command({ getParameter: 1, ttlMonitorEnabled: 1, ttlMonitorSleepSecs: 1, ttlIndexDeleteTargetDocs: 1, ttlIndexDeleteTargetTimeMS: 1, ttlMonitorSubPassTargetSecs: 1 }),
    ).toEqual({ ttlMonitorEnabled: true, ttlMonitorSleepSecs: 60, ttlIndexDeleteTargetDocs: 50000, ttlIndexDeleteTargetTimeMS: 1000, ttlMonitorSubPassTargetSecs: 60, ok: 1 });
    expect(await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 5 })).toEqual({ was: 60, ok: 1 });
    expect(await admin.command({ setParameter: 1, ttlMonitorEnabled: false })).toEqual({ was: true, ok: 1 });
    expect(await admin.command({ setParameter: 1, ttlIndexDeleteTargetDocs: 0 })).toEqual({ was: 50000, ok: 1 });
    expect(await admin.command({ setParameter: 1, ttlIndexDeleteTargetTimeMS: 2.9 })).toEqual({ was: 1000, ok: 1 });
    expect(await admin.command({ getParameter: 1, ttlMonitorEnabled: 1, ttlMonitorSleepSecs: 1, ttlIndexDeleteTargetDocs: 1, ttlIndexDeleteTargetTimeMS: 1 })).toEqual({
      ttlMonitorEnabled: false,
      ttlMonitorSleepSecs: 5,
      ttlIndexDeleteTargetDocs: 0,
      ttlIndexDeleteTargetTimeMS: 2,
      ok: 1,
    });
    const details = await admin.command({ getParameter: { showDetails: true }, ttlMonitorSleepSecs: 1 });
    expect(details.ttlMonitorSleepSecs).toEqual({ value: 5, settableAtRuntime: true, settableAtStartup: true });
  });

  test.each([
    [{ ttlMonitorSleepSecs: 0 }, 'Invalid value for parameter ttlMonitorSleepSecs: 0 is not greater than 0'],
    [{ ttlMonitorSleepSecs: -5 }, 'Invalid value for parameter ttlMonitorSleepSecs: -5 is not greater than 0'],
    [{ ttlMonitorSleepSecs: 'soon' }, 'Invalid value for parameter ttlMonitorSleepSecs: "soon"'],
    [{ ttlIndexDeleteTargetDocs: -1 }, 'Invalid value for parameter ttlIndexDeleteTargetDocs: -1 is not greater than or equal to 0'],
    [{ ttlIndexDeleteTargetTimeMS: -1 }, 'Invalid value for parameter ttlIndexDeleteTargetTimeMS: -1 is not greater than or equal to 0'],
  ])('setParameter %o is refused with 2 BadValue', async (param, errmsg) => {
    h = await startHarness();
    const err = await errorOf(() => h!.client.db('admin').command({ setParameter: 1, ...param }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 2, codeName: 'BadValue', errmsg });
  });

  test('startup values as the command line passes them (strings)', async () => {
    h = await startHarness({
      parameters: { ttlMonitorEnabled: 'false', ttlMonitorSleepSecs: '7', ttlIndexDeleteTargetDocs: '100', ttlIndexDeleteTargetTimeMS: '250' },
    });
    expect(
      await h.client.db('admin').command({ getParameter: 1, ttlMonitorEnabled: 1, ttlMonitorSleepSecs: 1, ttlIndexDeleteTargetDocs: 1, ttlIndexDeleteTargetTimeMS: 1 }),
    ).toEqual({ ttlMonitorEnabled: false, ttlMonitorSleepSecs: 7, ttlIndexDeleteTargetDocs: 100, ttlIndexDeleteTargetTimeMS: 250, ok: 1 });
  });

  test('a bad startup value stops the server from starting', async () => {
    const { MayflyServer } = await import('../../src/index.js');
    await expect(MayflyServer.create({ parameters: { ttlMonitorSleepSecs: '0' } })).rejects.toThrow(
      'Invalid value for parameter ttlMonitorSleepSecs: 0 is not greater than 0',
    );
  });
});

describe('the test clock', () => {
  test('mayflyClock, mayflyAdvanceClock over the wire (manual clock)', async () => {
    h = await startHarness({ clock: 'manual' });
    const admin = h.client.db('admin');
    const before = await admin.command({ mayflyClock: 1 }, { promoteLongs: false });
    expect(Object.keys(before)).toEqual(['clock', 'now', 'nowMillis', 'offsetMillis', 'ok']);
    expect(before.clock).toBe('manual');
    expect(before.now).toEqual(new Date(before.nowMillis.toNumber()));
    expect(before.offsetMillis).toEqual(Long.fromNumber(0));
    const after = await admin.command({ mayflyAdvanceClock: 90.5 }, { promoteLongs: false });
    expect(after).toEqual({ clock: 'manual', now: new Date(before.nowMillis.toNumber() + 90_500), nowMillis: Long.fromNumber(before.nowMillis.toNumber() + 90_500), offsetMillis: Long.fromNumber(0), ok: 1 });
    await sleep(20);
    expect((await admin.command({ mayflyClock: 1 })).nowMillis).toBe(before.nowMillis.toNumber() + 90_500); // a manual clock stands still
    expect((await admin.command({ serverStatus: 1 })).localTime).toEqual(new Date(before.nowMillis.toNumber() + 90_500));
  });

  test('on the system clock mayflyAdvanceClock adds an offset', async () => {
    h = await startHarness();
    const admin = h.client.db('admin');
    const before = await admin.command({ mayflyClock: 1 });
    expect(before.offsetMillis).toBe(0);
    const reply = await admin.command({ mayflyAdvanceClock: 3600 });
    expect(reply.clock).toBe('system');
    expect(reply.offsetMillis).toBe(3_600_000);
    const moved = reply.nowMillis - before.nowMillis;
    expect(moved >= 3_600_000 && moved < 3_601_000).toBe(true);
  });

  test.each([
    [{ mayflyAdvanceClock: -1 }, 2, 'BadValue', 'mayflyAdvanceClock takes a finite, non-negative number of seconds, not -1'],
    [{ mayflyAdvanceClock: Infinity }, 2, 'BadValue', 'mayflyAdvanceClock takes a finite, non-negative number of seconds, not Infinity'],
    [{ mayflyAdvanceClock: 'soon' }, 14, 'TypeMismatch', "BSON field 'mayflyAdvanceClock.mayflyAdvanceClock' is the wrong type 'string', expected types '[long, int, decimal, double']"],
    [{ mayflyClock: 1, extra: 1 }, 40415, 'IDLUnknownField', "BSON field 'mayflyClock.extra' is an unknown field."],
  ])('%o is refused', async (command, code, codeName, errmsg) => {
    h = await startHarness({ clock: 'manual' });
    const err = await errorOf(() => h!.client.db('admin').command(command));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code, codeName, errmsg });
  });

  test.each(['mayflyAdvanceClock', 'mayflyRunTtlPass', 'mayflyClock'])('%s is admin-only', async (name) => {
    h = await startHarness({ clock: 'manual' });
    const err = await errorOf(() => h!.db.command({ [name]: 1 }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 13,
      codeName: 'Unauthorized',
      errmsg: `${name} may only be run against the admin database.`,
    });
  });

  test('the embedding API: server.clock.advance(ms) and server.runTtlPass()', async () => {
    h = await startHarness({ clock: 'manual' });
    const c = h.db.collection('embedded');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 30 });
    await c.insertMany([{ _id: 1 }, { _id: 2, ttl: 60 }]);
    const start = h.server.clock.now();
    expect(h.server.clock.advance(30_000)).toBe(start + 30_000);
    expect(await ids(h.db, 'embedded')).toEqual([2]);
    const result: Document = await h.server.runTtlPass();
    expect(result).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1) });
    expect(h.server.clock.mode).toBe('manual');
  });
});

describe('passes and metrics', () => {
  test('serverStatus().metrics.ttl is four Int64 counters; one pass at a time', async () => {
    h = await startHarness({ clock: 'manual' });
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(0),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(0),
      subPasses: Long.fromNumber(0),
    });
    const c = h.db.collection('many');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 1 });
    await c.insertMany(Array.from({ length: 20_000 }, (_, i) => ({ _id: i })));
    await h.client.db('admin').command({ mayflyAdvanceClock: 1 });
    // Two passes asked for at once: the second waits for the first, which deleted everything.
    const [first, second] = await Promise.all([runPass(h.client), runPass(h.client)]);
    expect([first, second].map((r) => (r.deleted as Long).toNumber()).sort((a, b) => a - b)).toEqual([0, 20_000]);
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(20_000),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(2),
      subPasses: Long.fromNumber(2),
    });
  });
});

describe('the background reaper on the real clock', () => {
  test.each(['cosmos', 'mongodb'] as const)('runs by itself with ttlMonitorSleepSecs: 1 (--compat %s)', async (compat) => {
    h = await startHarness({ compat, parameters: { ttlMonitorSleepSecs: 1 } });
    const cosmos = h.db.collection('cosmos');
    await cosmos.createIndex({ _ts: 1 }, { expireAfterSeconds: 1 });
    await cosmos.insertMany([{ _id: 'expires' }, { _id: 'stays', ttl: -1 }]);
    if (compat === 'mongodb') {
      const native = h.db.collection('native');
      await native.createIndex({ t: 1 }, { expireAfterSeconds: 0 });
      const now = (await h.client.db('admin').command({ mayflyClock: 1 })).nowMillis as number;
      await native.insertMany([{ _id: 'old', t: new Date(now - 60_000) }, { _id: 'future', t: new Date(now + 3_600_000) }]);
    }
    const deleted = compat === 'mongodb' ? 2 : 1;
    const done = await eventually(async () => (await ttlMetrics(h!.client)).deletedDocuments.toNumber() === deleted, 4000);
    expect(done).toBe(true);
    expect(await ids(h.db, 'cosmos')).toEqual(['stays']);
    if (compat === 'mongodb') expect(await ids(h.db, 'native')).toEqual(['future']);
    expect((await ttlMetrics(h.client)).passes.toNumber()).toBeGreaterThanOrEqual(1);
  });

  test('a new ttlMonitorSleepSecs takes effect at once; a disabled monitor counts no pass', async () => {
    h = await startHarness({ parameters: { ttlMonitorEnabled: false } });
    const admin = h.client.db('admin');
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 });
    await sleep(1000);
    await sleep(300);
    expect((await ttlMetrics(h.client)).passes).toEqual(Long.fromNumber(0));
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 60 });
    await admin.command({ setParameter: 1, ttlMonitorEnabled: true });
    await sleep(1000);
    expect((await ttlMetrics(h.client)).passes).toEqual(Long.fromNumber(0)); // sleeping 60 s
    await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 }); // the sleep started > 1 s ago: wakes now
    expect(await eventually(async () => (await ttlMetrics(h!.client)).passes.toNumber() >= 1, 500)).toBe(true);
  });
});
