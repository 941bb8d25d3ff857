import { afterEach, describe, expect, test } from 'vitest';
import { Long } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { createLogger } from '../../../src/logger.js';
import { Catalog } from '../../../src/storage/catalog.js';
import type { Collection } from '../../../src/storage/collection.js';
import { keyString } from '../../../src/storage/values/key_string.js';
import { VersionedRecord, VersionedStore } from '../../../src/storage/versioned/store.js';
import { Clock } from '../../../src/ttl/clock.js';
import { TtlEngine } from '../../../src/ttl/engine.js';

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

let engines: TtlEngine[] = [];
afterEach(async () => {
  for (const e of engines) await e.stop();
  engines = [];
});

function setup(versioned: Record<string, number> = {}) {
  const catalog = new Catalog();
  const clock = new Clock('manual', T0);
  const engine = new TtlEngine({ catalog, clock, logger: createLogger('silent'), compat: 'cosmos' });
  engines.push(engine);
  const coll = catalog.create('db', 'v', { versioned: { maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400, ...versioned } });
  const store = engine.versionedStore(coll)!;
  return { catalog, clock, engine, coll, store };
}

function visible(coll: Collection, nowMs: number): unknown[] {
  return [...coll.scan(() => nowMs)].map((r) => r.doc);
}

function versionsOf(store: VersionedStore, coll: Collection, id: unknown, nowMs: number) {
  return store.versionsDocument(coll.rawGet(keyString(id))!, nowMs, Infinity, null);
}

describe('attaching', () => {
  test('a collection created with versioned options gets a row model; others do not', () => {
    const { catalog, engine, coll, store } = setup();
    expect(coll.rowModel).toBe(store);
    expect(store).toBeInstanceOf(VersionedStore);
    expect(store.limits).toEqual({ maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 });
    const plain = catalog.create('db', 'plain');
    expect(plain.rowModel).toBe(null);
    expect(engine.versionedStore(plain)).toBe(undefined);
  });

  test('the metrics gain deletedVersions once a versioned collection exists', () => {
    const catalog = new Catalog();
    const engine = new TtlEngine({ catalog, clock: new Clock('manual', T0), logger: createLogger('silent'), compat: 'cosmos' });
    engines.push(engine);
    expect(Object.keys(engine.metrics())).toEqual(['deletedDocuments', 'invalidTTLIndexSkips', 'passes', 'subPasses']);
    catalog.create('db', 'v', { versioned: { maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 } });
    expect(engine.metrics().deletedVersions).toEqual(Long.fromNumber(0));
  });

  test('secondary indexes are refused with 67', () => {
    const { coll } = setup();
    expect(() => coll.addIndex({ v: 2, key: { a: 1 }, name: 'a_1' }, T0)).toThrow(
      new CommandError('CannotCreateIndex', 'Index a_1 cannot be built: versioned collection db.v supports no secondary index (only _id)'),
    );
    expect(coll.indexes.length).toBe(0);
  });
});

describe('writes become versions', () => {
  test('insert: one version per column at now; the record reads as a plain document', () => {
    const { coll, store } = setup();
    const rec = coll.insert({ _id: 1, a: 1, b: 'x' }, T0);
    expect(rec).toBeInstanceOf(VersionedRecord);
    expect(rec.doc).toEqual({ _id: 1, a: 1, b: 'x' });
    expect(versionsOf(store, coll, 1, T0)).toEqual({
      _id: 1,
      a: [{ value: 1, timestamp: Long.fromNumber(T0) }],
      b: [{ value: 'x', timestamp: Long.fromNumber(T0) }],
    });
  });

  test('update: changed columns get a version, removed ones lose all, identical ones none; order follows the new document', () => {
    const { coll, store } = setup({ maxVersions: 3 });
    const rec = coll.insert({ _id: 1, a: 1, b: 'x', c: true }, T0);
    coll.update(rec, { _id: 1, c: true, a: 2, d: null }, T0 + 10);
    expect(rec.doc).toEqual({ _id: 1, c: true, a: 2, d: null });
    expect(Object.keys(rec.doc)).toEqual(['_id', 'c', 'a', 'd']);
    expect(versionsOf(store, coll, 1, T0 + 10)).toEqual({
      _id: 1,
      c: [{ value: true, timestamp: Long.fromNumber(T0) }],
      a: [
        { value: 2, timestamp: Long.fromNumber(T0 + 10) },
        { value: 1, timestamp: Long.fromNumber(T0) },
      ],
      d: [{ value: null, timestamp: Long.fromNumber(T0 + 10) }],
    });
    expect(rec.modifiedAtMs).toBe(T0 + 10);
  });

  test('assigning doc is refused: rows are written through the collection', () => {
    const { coll } = setup();
    const rec = coll.insert({ _id: 1, a: 1 }, T0);
    expect(() => {
      rec.doc = { _id: 1 };
    }).toThrow('a versioned row is written through its collection, not by assigning doc');
  });

  test('putRow writes given timestamps, creates the row when absent', () => {
    const { coll, store } = setup({ maxVersions: 2 });
    store.putRow('k', [{ column: 'a', value: 'old', ts: T0 - 5 }], T0);
    store.putRow('k', [{ column: 'a', value: 'new', ts: T0 }, { column: 'b', value: 1, ts: T0 + 5 }], T0);
    expect(coll.rawGet(keyString('k'))!.doc).toEqual({ _id: 'k', a: 'new', b: 1 });
    expect(versionsOf(store, coll, 'k', T0)).toEqual({
      _id: 'k',
      a: [
        { value: 'new', timestamp: Long.fromNumber(T0) },
        { value: 'old', timestamp: Long.fromNumber(T0 - 5) },
      ],
      b: [{ value: 1, timestamp: Long.fromNumber(T0 + 5) }],
    });
  });
});

describe('visibility, limits and the reaper', () => {
  test('TTL hides versions at once; raising it brings them back; a pass purges them for good', async () => {
    const { coll, store, engine, clock } = setup({ timeToLive: 86400 });
    coll.insert({ _id: 1, a: 1 }, T0);
    coll.insert({ _id: 2, a: 2 }, T0 + DAY);
    clock.advance(DAY + 1);
    expect(visible(coll, clock.now())).toEqual([{ _id: 2, a: 2 }]);
    expect(coll.getById(keyString(1), clock.now())).toBe(undefined);
    engine.modifyVersioned(coll, { timeToLive: 2 * 86400 });
    expect(visible(coll, clock.now())).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    engine.modifyVersioned(coll, { timeToLive: 86400 });
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(1) });
    engine.modifyVersioned(coll, { timeToLive: 2 * 86400 });
    expect(visible(coll, clock.now())).toEqual([{ _id: 2, a: 2 }]);
    expect(store.versionCount(coll.rawGet(keyString(2))!)).toBe(1);
    expect(engine.metrics()).toEqual({
      deletedDocuments: Long.fromNumber(1),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(1),
      subPasses: Long.fromNumber(1),
      deletedVersions: Long.fromNumber(1),
    });
  });

  test('versions beyond maxVersions are unreadable at once, purged by the next pass, and the row stays', async () => {
    const { coll, store, engine, clock } = setup({ maxVersions: 1 });
    const rec = coll.insert({ _id: 1, a: 1 }, T0);
    coll.update(rec, { _id: 1, a: 2 }, T0 + 1);
    expect(store.versionsDocument(rec, T0 + 1, Infinity, null)).toEqual({ _id: 1, a: [{ value: 2, timestamp: Long.fromNumber(T0 + 1) }] });
    expect(engine.scheduledCount(coll)).toBe(1);
    engine.modifyVersioned(coll, { maxVersions: 2 });
    expect(store.versionsDocument(rec, T0 + 1, Infinity, null)!.a).toEqual([
      { value: 2, timestamp: Long.fromNumber(T0 + 1) },
      { value: 1, timestamp: Long.fromNumber(T0) },
    ]);
    expect(engine.scheduledCount(coll)).toBe(0); // rebuilt: nothing to purge any more
    engine.modifyVersioned(coll, { maxVersions: 1 });
    clock.advance(1);
    expect(await engine.runPass()).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), deletedVersions: Long.fromNumber(1) });
    engine.modifyVersioned(coll, { maxVersions: 2 });
    expect(store.versionsDocument(rec, clock.now(), Infinity, null)).toEqual({ _id: 1, a: [{ value: 2, timestamp: Long.fromNumber(T0 + 1) }] });
  });

  test('an insert over a row with no readable version replaces it and counts a TTL deletion', () => {
    const { coll, engine, clock, store } = setup({ timeToLive: 86400 });
    coll.insert({ _id: 1, a: 1, b: 2 }, T0);
    clock.advance(DAY + 1);
    const fresh = coll.insert({ _id: 1, c: 3 }, clock.now());
    expect(fresh.doc).toEqual({ _id: 1, c: 3 });
    expect(store.versionCount(fresh)).toBe(1);
    expect(engine.metrics().deletedDocuments).toEqual(Long.fromNumber(1));
    expect(engine.metrics().deletedVersions).toEqual(Long.fromNumber(2));
  });

  test('inserts after the last _id and over an earlier unreadable row; a readable one is 11000', () => {
    const { coll, engine, clock } = setup({ timeToLive: 86400 });
    coll.insert({ _id: 1, a: 1 }, T0);
    clock.advance(DAY + 1);
    coll.insert({ _id: 2, a: 2 }, clock.now());
    coll.insert({ _id: 1, a: 3 }, clock.now());
    expect(engine.metrics().deletedDocuments).toEqual(Long.fromNumber(1));
    expect(() => coll.insert({ _id: 2, a: 4 }, clock.now())).toThrow('E11000 duplicate key error collection: db.v index: _id_ dup key: { _id: 2 }');
    coll.insert({ _id: 3, a: 5 }, clock.now());
    expect(visible(coll, clock.now())).toEqual([
      { _id: 2, a: 2 },
      { _id: 1, a: 3 },
      { _id: 3, a: 5 },
    ]);
    expect([coll.storedCount, coll.idIndex.tree.size]).toEqual([3, 3]);
  });

  test('collMod on a collection that is not versioned is 72', () => {
    const { catalog, engine } = setup();
    const plain = catalog.create('db', 'plain');
    const expected = new CommandError('InvalidOptions', 'option only supported on a versioned collection: versioned');
    expect(() => engine.modifyVersioned(plain, { maxVersions: 2 })).toThrow(expected);
    expect(() => engine.checkVersionedChange(plain, { maxVersions: 2 })).toThrow(expected);
  });

  test('modifyVersioned updates the stored options and reports before and after', () => {
    const { coll, engine } = setup();
    expect(engine.modifyVersioned(coll, { maxVersions: 4 })).toEqual({
      before: { maxVersions: 1, timeToLive: -1, maxTimeDeviation: 86400 },
      after: { maxVersions: 4, timeToLive: -1, maxTimeDeviation: 86400 },
    });
    expect(coll.options).toEqual({ versioned: { maxVersions: 4, timeToLive: -1, maxTimeDeviation: 86400 } });
  });

  test('a rename to another database moves rows with every version; drop forgets the collection', async () => {
    const { catalog, coll, engine } = setup({ maxVersions: 3 });
    const rec = coll.insert({ _id: 1, a: 1 }, T0);
    coll.update(rec, { _id: 1, a: 2 }, T0 + 1);
    const moved = catalog.rename(coll, 'other', 'w');
    const store = engine.versionedStore(moved)!;
    expect(store.limits.maxVersions).toBe(3);
    expect(versionsOf(store, moved, 1, T0 + 1)!.a).toEqual([
      { value: 2, timestamp: Long.fromNumber(T0 + 1) },
      { value: 1, timestamp: Long.fromNumber(T0) },
    ]);
    expect(engine.versionedStore(coll)).toBe(undefined);
    catalog.drop('other', 'w');
    expect(engine.versionedStore(moved)).toBe(undefined);
  });
});
