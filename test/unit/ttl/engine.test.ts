import { cosmosTypedReply } from '../../../src/cosmos/rules/reply_types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { Double, Long } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { createLogger } from '../../../src/logger.js';
import { Server } from '../../../src/server/server.js';
import { Catalog } from '../../../src/storage/catalog.js';
import type { Collection } from '../../../src/storage/collection.js';
import { Clock } from '../../../src/ttl/clock.js';
import { TtlEngine } from '../../../src/ttl/engine.js';

const T0 = 1_700_000_000_000;

function setup(compat: 'cosmos' | 'mongodb' = 'cosmos') {
  const catalog = new Catalog();
  const clock = new Clock('manual', T0);
  const engine = new TtlEngine({ catalog, clock, logger: createLogger('silent'), compat });
  return { catalog, clock, engine };
}

function addIndex(engine: TtlEngine, coll: Collection, spec: Record<string, unknown>, nowMs: number): void {
  const stored = engine.checkIndexSpec({ v: 2, ...spec }, spec);
  coll.addIndex(stored, nowMs);
  engine.indexCreated(coll, stored);
}

function visibleIds(coll: Collection, nowMs: number): unknown[] {
  return [...coll.scan(() => nowMs)].map((r) => r.doc._id);
}

let engines: TtlEngine[] = [];
afterEach(async () => {
  for (const e of engines) await e.stop();
  engines = [];
});

describe('TtlEngine.checkIndexSpec', () => {
  test('a spec without expireAfterSeconds is returned as is', () => {
    const { engine } = setup();
    const spec = { v: 2, key: { a: 1 }, name: 'a_1' };
    expect(engine.checkIndexSpec(spec, spec)).toBe(spec);
  });

  test('_ts: the value becomes an Int32 in place, other fields kept in order', () => {
    const { engine } = setup();
    const out = engine.checkIndexSpec({ v: 2, key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: new Double(60), sparse: false }, {});
    expect(out).toEqual({ v: 2, key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60, sparse: false });
    expect(Object.keys(out)).toEqual(['v', 'key', 'name', 'expireAfterSeconds', 'sparse']);
  });

  test('cosmos mode refuses any other field with the Cosmos message; mongodb mode validates and truncates', () => {
    const cosmos = setup('cosmos').engine;
    expect(() => cosmos.checkIndexSpec({ v: 2, key: { t: 1 }, name: 't_1', expireAfterSeconds: 60 }, {})).toThrow(
      new CommandError('BadValue', "The 'expireAfterSeconds' option is supported on '_ts' field only."),
    );
    const mongodb = setup('mongodb').engine;
    expect(mongodb.checkIndexSpec({ v: 2, key: { t: 1 }, name: 't_1', expireAfterSeconds: Long.fromNumber(90) }, {})).toEqual({
      v: 2,
      key: { t: 1 },
      name: 't_1',
      expireAfterSeconds: 90,
    });
  });

  test("createIndexes' _t comes from the Cosmos reply types (src/cosmos/rules/reply_types.ts)", () => {
    expect(cosmosTypedReply('createIndexes', { numIndexesBefore: 1 })).toEqual({ _t: 'CreateIndexesResponse', numIndexesBefore: 1 });
    expect(Object.keys(cosmosTypedReply('createIndexes', { numIndexesBefore: 1 }))[0]).toBe('_t');
  });

  test('collModExpireAfterSeconds follows the index policy', () => {
    const cosmos = setup('cosmos').engine;
    expect(cosmos.collModExpireAfterSeconds({ key: { _ts: 1 }, expireAfterSeconds: 5 }, Long.fromNumber(-1))).toBe(-1);
    expect(() => cosmos.collModExpireAfterSeconds({ key: { t: 1 } }, 5)).toThrow("The 'expireAfterSeconds' option is supported on '_ts' field only.");
    const mongodb = setup('mongodb').engine;
    expect(mongodb.collModExpireAfterSeconds({ key: { t: 1 } }, 50.9)).toBe(50);
    expect(() => mongodb.collModExpireAfterSeconds({ key: { t: 1 } }, -1)).toThrow("TTL index 'expireAfterSeconds' option cannot be less than 0");
    expect(() => mongodb.collModExpireAfterSeconds({ key: { _id: 1 } }, 1)).toThrow('the _id field does not support TTL indexes');
    expect(() => mongodb.collModExpireAfterSeconds({ key: { a: 1, b: 1 } }, 1)).toThrow(
      'TTL indexes are single-field indexes, compound indexes do not support TTL',
    );
    expect(mongodb.collModExpireAfterSeconds({ key: { a: 1, b: 1 }, expireAfterSeconds: 5 }, 1)).toBe(1);
  });
});

describe('TtlEngine on collections', () => {
  test('the visibility check and the scheduling are installed by a TTL index and removed with it', () => {
    const { catalog, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { a: 1 }, name: 'a_1' }, T0);
    expect(coll.visibility).toBeNull();
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 10 }, T0);
    expect(typeof coll.visibility).toBe('function');
    coll.insert({ _id: 1 }, T0);
    expect(engine.scheduledCount(coll)).toBe(1);
    coll.dropIndex('_ts_1');
    engine.indexDropped(coll, {});
    expect(coll.visibility).toBeNull();
    coll.insert({ _id: 2 }, T0);
    expect(engine.scheduledCount(coll)).toBe(0);
  });

  test('Cosmos visibility is exact to the millisecond and follows modifications', () => {
    const { catalog, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 10 }, T0);
    coll.insert({ _id: 1 }, T0);
    coll.insert({ _id: 2, ttl: 5 }, T0);
    expect(visibleIds(coll, T0 + 4_999)).toEqual([1, 2]);
    expect(visibleIds(coll, T0 + 5_000)).toEqual([1]);
    const first = [...coll.allRecords()].find((r) => r.doc._id === 1)!;
    coll.update(first, { _id: 1, x: 1 }, T0 + 9_000);
    expect(visibleIds(coll, T0 + 18_999)).toEqual([1]);
    expect(visibleIds(coll, T0 + 19_000)).toEqual([]);
  });

  test('only documents that can expire are scheduled, and a pass touches only what is due', async () => {
    const { catalog, clock, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: -1 }, T0);
    for (let i = 0; i < 50_000; i++) coll.insert({ _id: i }, T0);
    expect(engine.scheduledCount(coll)).toBe(0); // container -1 and no document ttl: nothing to schedule
    for (let i = 0; i < 10_000; i++) coll.insert({ _id: `t${i}`, ttl: 100 + i }, T0);
    expect(engine.scheduledCount(coll)).toBe(10_000);
    clock.advance(102_000); // ttl 100, 101 and 102 are due
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(3), subPasses: Long.fromNumber(1) });
    expect(engine.scheduledCount(coll)).toBe(9_997);
    expect(coll.storedCount).toBe(59_997);
  });

  test('stale schedule entries are compacted: the schedule stays within twice the records', () => {
    const { catalog, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 60 }, T0);
    for (let i = 0; i < 100; i++) coll.insert({ _id: i }, T0);
    const recs = [...coll.allRecords()];
    for (let round = 1; round <= 100; round++) for (const rec of recs) coll.update(rec, { _id: rec.doc._id, round }, T0 + round);
    expect(engine.scheduledCount(coll)).toBeLessThanOrEqual(2 * 100 + 1024);
    expect(engine.scheduledCount(coll)).toBeGreaterThanOrEqual(100);
  });

  test('an expired document removed by an insert is counted as a TTL deletion', async () => {
    const { catalog, clock, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 1 }, T0);
    coll.insert({ _id: 1 }, T0);
    coll.insert({ _id: 2 }, T0);
    clock.advance(1000);
    coll.insert({ _id: 1, again: true }, clock.now());
    expect(engine.metrics()).toEqual({
      deletedDocuments: Long.fromNumber(1),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(0),
      subPasses: Long.fromNumber(0),
    });
    // A client delete of a live document is not a TTL deletion.
    const live = [...coll.allRecords()].find((r) => r.doc._id === 1)!;
    expect(live.doc).toEqual({ _id: 1, again: true });
    coll.remove(live);
    expect(engine.metrics().deletedDocuments).toEqual(Long.fromNumber(1));
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1) });
    expect(engine.metrics().deletedDocuments).toEqual(Long.fromNumber(2));
  });

  test('a collection moved to another database keeps its TTL', async () => {
    const { catalog, clock, engine } = setup();
    engines.push(engine);
    const coll = catalog.getOrCreate('db1', 'c').coll;
    addIndex(engine, coll, { key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 10 }, T0);
    coll.insert({ _id: 1 }, T0);
    const moved = catalog.rename(coll, 'db2', 'c');
    await Promise.resolve();
    expect(visibleIds(moved, T0 + 9_999)).toEqual([1]);
    expect(visibleIds(moved, T0 + 10_000)).toEqual([]);
    clock.advance(10_000);
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1) });
    expect(moved.storedCount).toBe(0);
  });

  test('a dropped collection is forgotten', async () => {
    const { catalog, clock, engine } = setup('mongodb');
    engines.push(engine);
    const coll = catalog.getOrCreate('db', 'c').coll;
    addIndex(engine, coll, { key: { t: 1 }, name: 't_1', expireAfterSeconds: 0 }, T0);
    coll.insert({ _id: 1, t: new Date(T0 - 1) }, T0);
    expect(engine.scheduledCount(coll)).toBe(1);
    catalog.drop('db', 'c');
    expect(engine.scheduledCount(coll)).toBe(0);
    clock.advance(1);
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1) });
  });

  test('the server registers the TTL parameters with their defaults, and setting one reaches the engine', () => {
    const server = new Server({ logLevel: 'silent', clock: 'manual' });
    const parameters = server.parameters;
    expect(parameters.describe(['ttlMonitorEnabled', 'ttlMonitorSleepSecs', 'ttlIndexDeleteTargetDocs', 'ttlIndexDeleteTargetTimeMS', 'ttlMonitorSubPassTargetSecs', 'ttlMonitorBatchDeletes'], false)).toEqual({
      ttlMonitorEnabled: true,
      ttlMonitorSleepSecs: 60,
      ttlIndexDeleteTargetDocs: 50000,
      ttlIndexDeleteTargetTimeMS: 1000,
      ttlMonitorSubPassTargetSecs: 60,
      ttlMonitorBatchDeletes: true,
    });
    parameters.lookup('ttlMonitorSleepSecs')!.set!(5);
    parameters.lookup('ttlMonitorEnabled')!.set!(false);
    expect([server.ttl.settings.sleepSecs, server.ttl.settings.enabled]).toEqual([5, false]);
  });
});
