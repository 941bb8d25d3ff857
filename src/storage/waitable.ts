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

/**
 * A signal: `signal()` wakes every subscriber once, after the current turn of the event loop
 * (`setImmediate`), however many times it was raised in that turn; a subscriber stays until it
 * unsubscribes.
 *
 * After the turn, not inside the commit that raises it: the replies of the turn (the writer's own,
 * which on the retryable-write path goes out in a microtask) are written first, and the commits
 * of one turn (a transaction's events, several writers' inserts read in one poll) reach each
 * reader as one batch. Not a timer: the wake runs in the same loop iteration, the readers'
 * replies follow the writer's at once.
 */
export class Waitable {
  private readonly waiters = new Set<() => void>();
  private scheduled = false;

  /** Calls `wake` after every later `signal()` (once per turn); returns the unsubscribe. */
  subscribe(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }

  /** Schedules the wake of every subscriber (nothing when none waits). */
  signal(): void {
    if (this.waiters.size === 0 || this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.wakeAll);
  }

  /** Wakes the subscribers of the moment (a copy: a subscriber may unsubscribe while woken). */
  private readonly wakeAll = (): void => {
    this.scheduled = false;
    for (const wake of [...this.waiters]) wake();
  };

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
