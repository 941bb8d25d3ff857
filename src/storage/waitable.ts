/**
 * Waiting for a commit without polling: a `Waitable` is a signal that readers subscribe to and a
 * commit raises. A getMore on an awaitData cursor subscribes (through its cursor's `subscribe`),
 * and is woken by the commit that may have brought it something, or gives up at its deadline.
 *
 * `collectionSignals(catalog)` keeps one `Waitable` per collection, raised by every commit that
 * inserts into it (an observer of the write path: after the commit, never inside a transaction's
 * statements): what a tailable cursor on a capped collection waits on. Keyed by the collection
 * itself, so that a collection dropped and created again under the same name has a new signal.
 */
import type { OpObserver, WriteEvent, WriteTarget } from './write/observers.js';

/** A signal: `signal()` calls every subscriber once; a subscriber stays until it unsubscribes. */
export class Waitable {
  private readonly waiters = new Set<() => void>();

  /** Calls `wake` at every later `signal()`; returns the unsubscribe. */
  subscribe(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }

  /** Wakes every subscriber (a copy of the set: a subscriber may unsubscribe while woken). */
  signal(): void {
    if (this.waiters.size === 0) return;
    for (const wake of [...this.waiters]) wake();
  }

  /** Number of subscribers (for tests and diagnostics). */
  get waiting(): number {
    return this.waiters.size;
  }
}

/** The insert signals of one catalog's collections. */
export class CollectionSignals implements OpObserver {
  private readonly byCollection = new WeakMap<WriteTarget, Waitable>();

  /** The signal raised by every commit that inserts into `coll`. */
  of(coll: WriteTarget): Waitable {
    let waitable = this.byCollection.get(coll);
    if (waitable === undefined) {
      waitable = new Waitable();
      this.byCollection.set(coll, waitable);
    }
    return waitable;
  }

  /** A commit's run of inserts into one collection: its subscribers are woken. */
  onInserts(events: readonly WriteEvent[]): void {
    const first = events[0];
    if (first !== undefined) this.byCollection.get(first.collection)?.signal();
  }
}

const signalsByCatalog = new WeakMap<object, CollectionSignals>();

/** The insert signals of `catalog`'s collections (attached to its write path on first use). */
export function collectionSignals(catalog: { writes: { observers: { add(o: OpObserver): () => void } } }): CollectionSignals {
  let signals = signalsByCatalog.get(catalog);
  if (signals === undefined) {
    signals = new CollectionSignals();
    catalog.writes.observers.add(signals);
    signalsByCatalog.set(catalog, signals);
  }
  return signals;
}
