/**
 * The snapshot store's history (src/storage/write/snapshots.ts): none is kept on the plain path;
 * once a snapshot read asks (`retain`), commits are kept for the window on the server clock and
 * freed as they leave it; a view pins what it needs beyond the window, and the retained size goes
 * back to 0 once the reader ends and the window has passed; a view at an old time reads that
 * time's documents.
 */
import { describe, expect, test } from 'vitest';
import { Timestamp, type Document } from '../../../src/bson/library.js';
import { Catalog } from '../../../src/storage/catalog.js';
import { documentFields, documentField } from '../../../src/storage/record.js';
import { SnapshotStore } from '../../../src/storage/write/snapshots.js';

/** A catalog on a manual wall clock (ms) and a cluster time that ticks per commit. */
function setup(): { catalog: Catalog; store: SnapshotStore; clock: { ms: number }; latest: () => Timestamp } {
  const catalog = new Catalog();
  const clock = { ms: 1_700_000_000_000 };
  let current = new Timestamp({ t: 1_700_000_000, i: 0 });
  catalog.writes.useClocks({
    clusterTime: () => (current = new Timestamp({ t: Math.floor(clock.ms / 1000), i: current.i + 1 })),
    wallTimeMs: () => clock.ms,
  });
  const store = new SnapshotStore(catalog.writes, () => current, () => clock.ms);
  return { catalog, store, clock, latest: () => current };
}

function write(catalog: Catalog, id: number, x: number): void {
  const coll = catalog.getOrCreate('d', 'c').coll;
  catalog.writes.run(() => {
    const rec = [...coll.allRecords()].find((r) => documentField(r, '_id') === id);
    if (rec === undefined) coll.insert({ _id: id, x }, 0);
    else coll.update(rec, { _id: id, x }, 0);
  });
}

function contents(catalog: Catalog): Document[] {
  const coll = catalog.get('d', 'c');
  return coll === undefined ? [] : [...coll.scan(() => 0)].map((rec) => documentFields(rec, null)).sort((a, b) => Number(a._id) - Number(b._id));
}

describe('snapshot history retention', () => {
  test('the plain path keeps nothing', () => {
    const { catalog, store } = setup();
    for (let i = 0; i < 5; i++) write(catalog, i, i);
    expect(catalog.writes.tracker).toBe(null);
    expect(store.historyLength).toBe(0);
    expect(store.retainedChanges).toBe(0);
    expect(store.oldestReadable).toBe(null);
  });

  test('a retained window keeps commits until they are older than the window', () => {
    const { catalog, store, clock } = setup();
    store.windowSecs = 10;
    store.retain();
    write(catalog, 1, 1);
    clock.ms += 6_000;
    write(catalog, 2, 2);
    expect(store.retainedChanges).toBe(2);
    store.retain(); // another snapshot read, 6 s later: the window runs from here
    clock.ms += 5_000; // the first commit is 11 s old, the second 5 s
    write(catalog, 3, 3);
    expect(store.historyLength).toBe(2);
    expect(store.retainedChanges).toBe(2);
    clock.ms += 20_000; // the window since the last request has passed: retention ends
    store.prune();
    expect(store.retaining).toBe(false);
    expect(catalog.writes.tracker).toBe(null);
    expect(store.retainedChanges).toBe(0);
  });

  test('a view reads its time; what it pins is freed when it closes', () => {
    const { catalog, store, clock, latest } = setup();
    store.windowSecs = 10;
    write(catalog, 1, 11);
    store.retain();
    const view = store.open(false);
    expect(view.ts).toEqual(latest());
    for (let i = 0; i < 4; i++) {
      clock.ms += 5_000;
      write(catalog, 1, 12 + i);
      write(catalog, 2 + i, 0);
      store.retain(); // the reader reads again
    }
    // 20 s passed: the window alone would have freed half, the view pins all 8 changes.
    expect(store.retainedChanges).toBe(8);
    store.apply(view);
    expect(contents(catalog)).toEqual([{ _id: 1, x: 11 }]);
    store.release(view);
    store.settle();
    expect(contents(catalog)).toEqual([{ _id: 1, x: 15 }, { _id: 2, x: 0 }, { _id: 3, x: 0 }, { _id: 4, x: 0 }, { _id: 5, x: 0 }]);
    store.close(view);
    // Only the window's commits stay (those made 10 s ago or later: three steps of two).
    expect(store.retainedChanges).toBe(6);
    clock.ms += 30_000;
    store.prune();
    expect(store.openViews).toBe(0);
    expect(store.retainedChanges).toBe(0);
    expect(catalog.writes.tracker).toBe(null);
  });

  test('a view at an older cluster time sees the documents of that time', () => {
    const { catalog, store, clock, latest } = setup();
    store.retain();
    write(catalog, 1, 1);
    const first = latest();
    clock.ms += 1_000;
    write(catalog, 1, 2);
    write(catalog, 2, 2);
    const view = store.open(false, first);
    store.apply(view);
    expect(contents(catalog)).toEqual([{ _id: 1, x: 1 }]);
    store.release(view);
    store.close(view);
    expect(contents(catalog)).toEqual([{ _id: 1, x: 2 }, { _id: 2, x: 2 }]);
  });

  test('history freed by the window raises the oldest readable time', () => {
    const { catalog, store, clock } = setup();
    store.windowSecs = 1;
    store.retain();
    const since = store.oldestReadable!;
    write(catalog, 1, 1);
    clock.ms += 900;
    store.retain();
    clock.ms += 600;
    write(catalog, 1, 2);
    expect(store.oldestReadable!.greaterThan(since)).toBe(true);
    expect(store.historyLength).toBe(1);
  });
});
