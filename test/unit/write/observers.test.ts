/**
 * The write path's observers (src/storage/write/): for each kind of write, a test observer sees
 * exactly the events, in order, with cluster times strictly increasing from one commit to the next.
 */
import { describe, expect, test } from 'vitest';
import { Timestamp, type Document } from '../../../src/bson/library.js';
import { Catalog } from '../../../src/storage/catalog.js';
import type { OpObserver } from '../../../src/storage/write/observers.js';
import { describeUpdate } from '../../../src/storage/write/write_unit.js';

const NOW = 1_700_000_000_000;

interface Seen {
  readonly kind: string;
  readonly ns: string;
  readonly time: Timestamp;
  readonly detail: Document;
}

/** A catalog on a counting clock, and everything its observer is told. */
function setup(): { catalog: Catalog; seen: Seen[] } {
  const catalog = new Catalog();
  let inc = 0;
  catalog.writes.useClocks({ clusterTime: () => new Timestamp({ t: 100, i: ++inc }), wallTimeMs: () => NOW });
  const seen: Seen[] = [];
  const observer: OpObserver = {
    onInserts: (events) => {
      for (const e of events) seen.push({ kind: 'insert', ns: e.ns, time: e.clusterTime, detail: { documentKey: e.documentKey, after: e.after, fromMigrate: e.fromMigrate } });
    },
    onUpdate: (e) => seen.push({ kind: e.op, ns: e.ns, time: e.clusterTime, detail: { documentKey: e.documentKey, before: e.before, after: e.after, updateDescription: e.updateDescription } }),
    onDelete: (e) => seen.push({ kind: 'delete', ns: e.ns, time: e.clusterTime, detail: { documentKey: e.documentKey, before: e.before, cause: e.cause } }),
    onCreateCollection: (e) => seen.push({ kind: 'create', ns: e.ns, time: e.clusterTime, detail: { options: e.options } }),
    onDropCollection: (e) => seen.push({ kind: 'drop', ns: e.ns, time: e.clusterTime, detail: {} }),
    onRenameCollection: (e) => seen.push({ kind: 'rename', ns: e.from, time: e.clusterTime, detail: { to: e.to, sameObject: e.source === e.collection, droppedTarget: e.droppedTarget?.ns } }),
    onCreateIndexes: (e) => seen.push({ kind: 'createIndexes', ns: e.ns, time: e.clusterTime, detail: { names: e.specs.map((s) => s.name) } }),
    onDropIndexes: (e) => seen.push({ kind: 'dropIndexes', ns: e.ns, time: e.clusterTime, detail: { names: e.specs.map((s) => s.name) } }),
    onCollMod: (e) => seen.push({ kind: 'collMod', ns: e.ns, time: e.clusterTime, detail: { changes: e.changes } }),
    onDropDatabase: (e) => seen.push({ kind: 'dropDatabase', ns: e.db, time: e.clusterTime, detail: {} }),
  };
  catalog.writes.observers.add(observer);
  return { catalog, seen };
}

/** [kind, ns] of each event. */
const kinds = (seen: readonly Seen[]): string[][] => seen.map((s) => [s.kind, s.ns]);

/** True when the times never go back and grow from one commit to the next (`commits` gives the events' commit numbers). */
function increasingByCommit(seen: readonly Seen[], commits: readonly number[]): boolean {
  for (let i = 1; i < seen.length; i++) {
    const cmp = seen[i]!.time.compare(seen[i - 1]!.time);
    if (commits[i] === commits[i - 1] ? cmp !== 0 : cmp <= 0) return false;
  }
  return true;
}

describe('write path observers', () => {
  test('an implicit creation, then the inserts of one unit: one event each, one cluster time for the unit', () => {
    const { catalog, seen } = setup();
    catalog.writes.run(() => {
      const { coll } = catalog.getOrCreate('d', 'c');
      coll.insert({ _id: 1, a: 1 }, NOW);
      coll.insert({ a: 2, _id: 2 }, NOW);
    });
    expect(kinds(seen)).toEqual([['create', 'd.c'], ['insert', 'd.c'], ['insert', 'd.c']]);
    expect(seen[1]!.detail).toEqual({ documentKey: { _id: 1 }, after: { _id: 1, a: 1 }, fromMigrate: undefined });
    expect(seen[2]!.detail).toEqual({ documentKey: { _id: 2 }, after: { _id: 2, a: 2 }, fromMigrate: undefined });
    expect(seen.map((s) => s.time.toString())).toEqual([new Timestamp({ t: 100, i: 1 }), new Timestamp({ t: 100, i: 2 }), new Timestamp({ t: 100, i: 2 })].map(String));
  });

  test('update, patch, replace and delete: before, after, updateDescription and documentKey; times strictly increasing', () => {
    const { catalog, seen } = setup();
    const { coll } = catalog.getOrCreate('d', 'c');
    coll.insert({ _id: 1, a: 1, b: { x: 1, y: 2 }, gone: true }, NOW);
    const rec = coll.rawGet(coll.allRecords().next().value!.id)!;
    coll.update(rec, { _id: 1, a: 2, b: { x: 1, y: 3 } }, NOW, null, rec.doc);
    coll.patch(rec, ['a'], { _id: 1, a: 2 }, { _id: 1, a: 5 }, NOW);
    coll.update(rec, { _id: 1, z: 'new' }, NOW, null, undefined, 'replace');
    coll.remove(rec);
    expect(kinds(seen)).toEqual([['create', 'd.c'], ['insert', 'd.c'], ['update', 'd.c'], ['update', 'd.c'], ['replace', 'd.c'], ['delete', 'd.c']]);
    expect(seen[2]!.detail).toEqual({
      documentKey: { _id: 1 },
      before: { _id: 1, a: 1, b: { x: 1, y: 2 }, gone: true },
      after: { _id: 1, a: 2, b: { x: 1, y: 3 } },
      updateDescription: { updatedFields: { a: 2, 'b.y': 3 }, removedFields: ['gone'], truncatedArrays: [] },
    });
    // A patch's before and after are read from the record's bytes, whole.
    expect(seen[3]!.detail).toEqual({
      documentKey: { _id: 1 },
      before: { _id: 1, a: 2, b: { x: 1, y: 3 } },
      after: { _id: 1, a: 5, b: { x: 1, y: 3 } },
      updateDescription: { updatedFields: { a: 5 }, removedFields: [], truncatedArrays: [] },
    });
    expect(seen[4]!.detail).toEqual({ documentKey: { _id: 1 }, before: { _id: 1, a: 5, b: { x: 1, y: 3 } }, after: { _id: 1, z: 'new' }, updateDescription: undefined });
    expect(seen[5]!.detail).toEqual({ documentKey: { _id: 1 }, before: { _id: 1, z: 'new' }, cause: undefined });
    expect(increasingByCommit(seen, [0, 1, 2, 3, 4, 5])).toBe(true);
  });

  test('capped eviction is an operation of the insert that caused it, after the insert', () => {
    const { catalog, seen } = setup();
    const coll = catalog.create('d', 'capped', { capped: true, size: 4096, max: 2 });
    catalog.writes.run(() => coll.insert({ _id: 1 }, NOW));
    catalog.writes.run(() => coll.insert({ _id: 2 }, NOW));
    catalog.writes.run(() => coll.insert({ _id: 3 }, NOW));
    expect(kinds(seen)).toEqual([['create', 'd.capped'], ['insert', 'd.capped'], ['insert', 'd.capped'], ['insert', 'd.capped'], ['delete', 'd.capped']]);
    expect(seen[4]!.detail).toEqual({ documentKey: { _id: 1 }, before: { _id: 1 }, cause: 'capped' });
    expect(increasingByCommit(seen, [0, 1, 2, 3, 3])).toBe(true);
  });

  test('an expired holder of the _id an insert takes is removed first, in the same unit', () => {
    const { catalog, seen } = setup();
    const { coll } = catalog.getOrCreate('d', 'c');
    coll.insert({ _id: 1, old: true }, NOW);
    coll.visibility = (rec) => rec.doc.old !== true;
    catalog.writes.run(() => coll.insert({ _id: 1, old: false }, NOW));
    expect(kinds(seen)).toEqual([['create', 'd.c'], ['insert', 'd.c'], ['delete', 'd.c'], ['insert', 'd.c']]);
    expect(seen[2]!.detail).toEqual({ documentKey: { _id: 1 }, before: { _id: 1, old: true }, cause: 'expiredHolder' });
    expect(increasingByCommit(seen, [0, 1, 2, 2])).toBe(true);
  });

  test('DDL: createIndexes, collMod, dropIndexes, renames within and across databases, drop, dropDatabase', () => {
    const { catalog, seen } = setup();
    const coll = catalog.create('d', 'a');
    coll.insert({ _id: 1 }, NOW);
    const spec = { v: 2, key: { k: 1 }, name: 'k_1' };
    coll.addIndex(spec, NOW);
    catalog.indexesCreated(coll, [spec]);
    catalog.collectionModified(coll, { hidden_old: false, hidden_new: true });
    coll.dropIndex('k_1');
    catalog.indexesDropped(coll, [spec]);
    catalog.rename(coll, 'd', 'b');
    const other = catalog.create('e', 'target');
    const moved = catalog.rename(coll, 'e', 'target', { dropTarget: true });
    expect(moved.ns).toBe('e.target');
    expect(catalog.get('e', 'target')).toBe(moved);
    expect(other.storedCount).toBe(0);
    catalog.drop('e', 'target');
    catalog.create('e', 'x');
    catalog.dropDatabase('e');
    expect(kinds(seen)).toEqual([
      ['create', 'd.a'],
      ['insert', 'd.a'],
      ['createIndexes', 'd.a'],
      ['collMod', 'd.a'],
      ['dropIndexes', 'd.a'],
      ['rename', 'd.a'],
      ['create', 'e.target'],
      ['insert', 'e.target'],
      ['rename', 'd.b'],
      ['drop', 'e.target'],
      ['create', 'e.x'],
      ['drop', 'e.x'],
      ['dropDatabase', 'e'],
    ]);
    expect(seen[2]!.detail).toEqual({ names: ['k_1'] });
    expect(seen[3]!.detail).toEqual({ changes: { hidden_old: false, hidden_new: true } });
    expect(seen[5]!.detail).toEqual({ to: 'd.b', sameObject: true, droppedTarget: undefined });
    // The move across databases copies its documents as an internal move.
    expect(seen[7]!.detail).toEqual({ documentKey: { _id: 1 }, after: { _id: 1 }, fromMigrate: true });
    expect(seen[8]!.detail).toEqual({ to: 'e.target', sameObject: false, droppedTarget: 'e.target' });
    expect(increasingByCommit(seen, seen.map((_, i) => i))).toBe(true);
  });

  test('a write with no unit open is a unit of its own; a nested run joins the open unit', () => {
    const { catalog, seen } = setup();
    const { coll } = catalog.getOrCreate('d', 'c');
    coll.insert({ _id: 1 }, NOW);
    coll.insert({ _id: 2 }, NOW);
    catalog.writes.run(() => {
      coll.insert({ _id: 3 }, NOW);
      catalog.writes.run(() => coll.insert({ _id: 4 }, NOW));
    });
    expect(increasingByCommit(seen, [0, 1, 2, 3, 3])).toBe(true);
  });

  test('a unit whose work throws still tells what it applied', () => {
    const { catalog, seen } = setup();
    const { coll } = catalog.getOrCreate('d', 'c');
    expect(() =>
      catalog.writes.run(() => {
        coll.insert({ _id: 1 }, NOW);
        coll.insert({ _id: 1 }, NOW);
      }),
    ).toThrow('E11000 duplicate key error collection: d.c index: _id_ dup key: { _id: 1 }');
    expect(kinds(seen)).toEqual([['create', 'd.c'], ['insert', 'd.c']]);
  });

  test('an observer removed is told nothing more', () => {
    const catalog = new Catalog();
    const told: string[] = [];
    const remove = catalog.writes.observers.add({ onInserts: (events) => told.push(...events.map((e) => String(e.documentKey._id))) });
    const { coll } = catalog.getOrCreate('d', 'c');
    coll.insert({ _id: 1 }, NOW);
    remove();
    coll.insert({ _id: 2 }, NOW);
    expect(told).toEqual(['1']);
  });
});

describe('describeUpdate', () => {
  test.each<[string, Document, Document, Document]>([
    ['a changed value', { _id: 1, a: 1 }, { _id: 1, a: 2 }, { updatedFields: { a: 2 }, removedFields: [], truncatedArrays: [] }],
    ['a new field', { _id: 1 }, { _id: 1, n: 'x' }, { updatedFields: { n: 'x' }, removedFields: [], truncatedArrays: [] }],
    ['a nested change by its path', { _id: 1, a: { b: { c: 1, d: 1 } } }, { _id: 1, a: { b: { c: 2, d: 1 } } }, { updatedFields: { 'a.b.c': 2 }, removedFields: [], truncatedArrays: [] }],
    ['a nested removal', { _id: 1, a: { b: 1, c: 1 } }, { _id: 1, a: { b: 1 } }, { updatedFields: {}, removedFields: ['a.c'], truncatedArrays: [] }],
    ['an array whole', { _id: 1, a: [1, 2] }, { _id: 1, a: [1, 3] }, { updatedFields: { a: [1, 3] }, removedFields: [], truncatedArrays: [] }],
    ['a type change of an equal number', { _id: 1, a: 1 }, { _id: 1, a: 1.5 - 0.5 + 0.000001 }, { updatedFields: { a: 1.000001 }, removedFields: [], truncatedArrays: [] }],
    ['nothing', { _id: 1, a: 1 }, { _id: 1, a: 1 }, { updatedFields: {}, removedFields: [], truncatedArrays: [] }],
  ])('%s', (_name, before, after, expected) => {
    expect(describeUpdate(before, after)).toEqual(expected);
  });
});
