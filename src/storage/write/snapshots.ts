/**
 * Snapshot isolation for transactions and snapshot reads (WRITE_PATH.md step 3), kept beside
 * the head state rather than inside every record: the collections always hold the committed
 * head, and a `ReadView` is the head minus the changes committed after the view was taken, plus
 * the view's own (a transaction's uncommitted) changes.
 *
 * While a view is open, the write path tells this store of each committed unit's net record
 * changes (`RecordChange`: a record's stored bytes before and after), kept in order as the
 * history (for `atClusterTime` positions and conflict checks). Each position views read at is a
 * `Pin`, kept up to date as commits come (O(open positions) per changed record): the bytes at the
 * position of every record that existed then and changed since, and the collections that got new
 * records after it. A view's reads run with the view *applied* (`apply`): those records are put
 * back to their bytes at the position, once each, on the real records and indexes; the records
 * inserted after it stay where they are, stored and indexed, and the collections' visibility
 * check hides them (`Collection.hideWhile`, composed with the TTL engine's check; `births` says
 * which commit inserted each), so hiding them costs nothing per statement; then the view's own
 * changes are redone. A newer record holding a key that a restored one needs (an `_id` deleted
 * and inserted again, a unique key given up and taken) is set aside while the view is applied.
 * `withdraw` puts the head back the same way. So every read path (scans, index bounds, FETCH, the
 * `_id` lookup) sees the view's state through the one visibility check, a statement costs what it
 * reads plus what changed per record since its position (never a walk of the history), and a
 * writer's commit costs its own changes. The plain path (no view open) pays nothing: no history
 * is kept, the tracker is unset. A view is applied only for the statement that reads in it; no
 * other command runs meanwhile (`busy`).
 *
 * Write-write conflicts (first writer wins, at write time as mongod decides them): a
 * transaction's statement that changes a record another open transaction changed, or that was
 * committed after its snapshot, is refused (`admit` answers false: 112 WriteConflict); a unit
 * outside any transaction that changes a record an open transaction changed is withdrawn and
 * fails with 112 (the TTL reaper's deletion retries on its next pass).
 *
 * History retention (mongod's `minSnapshotHistoryWindowInSeconds`): a snapshot read outside a
 * transaction hands its client a cluster time to read at again later (a snapshot session), so it
 * asks the store to `retain` history: from then on every commit is kept, each entry with its wall
 * time, and entries older than the window (on the server's clock) are freed as commits come, unless
 * an open view still needs them. Once the window has passed since the last such request and no
 * view is open, the tracker is unset again and the plain path pays nothing. A read at a time older
 * than what is kept is 239 SnapshotTooOld (`oldestReadable`). Without retention, history is kept
 * only while a view is open, and dropped as views close. While retained, the positions of the
 * last few snapshot reads stay (idle pins, `MAX_IDLE_PINS`), so that a snapshot session's next
 * read at the same time finds its records ready; a pin goes with the history before it.
 */
import type { Timestamp } from '../../bson/library.js';
import type { StoredDocument } from '../record.js';
import type { WriteTarget } from './observers.js';
import { writeConflict, type ChangeTracker, type Displaced, type RecordChange, type WritePath, type WriteUnit } from './write_unit.js';

export { WRITE_CONFLICT_MESSAGE, writeConflict } from './write_unit.js';

/** A snapshot: what its reads see (see module comment). */
export class ReadView {
  /** The view's own changes (a transaction's), in the order they were made. */
  readonly own: RecordChange[] = [];
  /** Keys of the records the view changed. */
  readonly ownKeys = new Set<string>();
  /**
   * The view's own catalog changes (the collections a transaction created): redone when the
   * view is applied, before its records; undone when it is withdrawn, after them.
   */
  readonly ownCatalog: Array<{ redo(): void; undo(): void }> = [];
  /** False once closed. */
  open = true;

  constructor(
    /** The history position the view sees: commits numbered up to this one. */
    readonly at: number,
    /** What changed since `at`, record by record (shared by the views of one position). */
    readonly pin: Pin,
    /** The cluster time of the snapshot. */
    readonly ts: Timestamp,
    /** True for a transaction's view (its changes are conflicts for others). */
    readonly writes: boolean,
  ) {}
}

/** A collection as a view restores it (`Collection`). */
interface ViewTarget extends WriteTarget {
  restoreRecord(rec: StoredDocument, bson: string | null, displaced?: Displaced): void;
  restoreRecords(states: ReadonlyMap<StoredDocument, string | null>, displaced: Displaced): void;
  hideWhile(hidden: ((rec: StoredDocument) => boolean) | null): void;
}

/**
 * A history position that views read at, and what its readers need, kept up to date at each
 * commit (O(open positions) per changed record): the bytes at the position of each record that
 * existed then and changed since, by collection, and the collections that got records after it
 * (those records are hidden by the visibility check while a view of the position is applied,
 * never moved). Applying a view thus costs what changed per record since its position, once each.
 */
export class Pin {
  /** Per collection, the records that existed at `at` and changed since: their bytes at `at` (first `before` after it). */
  readonly changed = new Map<ViewTarget, Map<StoredDocument, string>>();
  /** The collections into which records were inserted after `at`. */
  readonly grown = new Set<ViewTarget>();
  /** Open views reading at it. */
  views = 0;
  /** The wall time (ms) of its last use (an idle one is kept for a snapshot session's next read). */
  usedAtMs = 0;
  constructor(readonly at: number) {}
}

/** Idle positions kept for snapshot sessions reading again at the time of their first read. */
const MAX_IDLE_PINS = 8;

/** One committed unit in the history. */
interface HistoryEntry {
  readonly seq: number;
  readonly ts: Timestamp;
  /** The server's wall time of the commit (ms), for the retention window. */
  readonly wallMs: number;
  readonly changes: readonly RecordChange[];
}

/** mongod's default `minSnapshotHistoryWindowInSeconds`. */
export const DEFAULT_SNAPSHOT_HISTORY_WINDOW_SECONDS = 300;

/** The key of a change's record: its namespace and canonical `_id`. */
function keyOf(change: RecordChange): string {
  return `${change.collection.ns}\u0000${change.record.id}`;
}

/** The views and history of one catalog's write path (see module comment). */
export class SnapshotStore implements ChangeTracker {
  private history: HistoryEntry[] = [];
  private seq = 0;
  private readonly views = new Set<ReadView>();
  /** The last commit that changed each key, while views are open. */
  private readonly lastWrite = new Map<string, number>();
  /** The open transaction's view that changed each key. */
  private readonly owners = new Map<string, ReadView>();
  /** The cluster time since which history is kept (null: none kept). */
  private keptSince: Timestamp | null = null;
  /** The view applied now, if any; others wait for `idle`. */
  private applied: ReadView | null = null;
  /** While a view is applied: the head bytes of the records it put back, by collection, and the records it took out (`displaced`). */
  private head: Array<[ViewTarget, Map<StoredDocument, string | null>]> = [];
  private displaced: Array<{ collection: ViewTarget; record: StoredDocument; bson: string | null }> = [];
  /** While a view is applied: the collections whose newer records it hides. */
  private hiding: ViewTarget[] = [];
  /** The positions views read at (see `Pin`), by position. */
  private readonly pins = new Map<number, Pin>();
  /** The commit that inserted each record, for records inserted since the oldest kept commit. */
  private readonly births = new Map<StoredDocument, number>();
  private idleWaiters: Array<() => void> = [];
  /** `minSnapshotHistoryWindowInSeconds`: how long retained history is kept. */
  windowSecs = DEFAULT_SNAPSHOT_HISTORY_WINDOW_SECONDS;
  /** While history is retained for snapshot reads: the wall time (ms) of the last request (null: none). */
  private retainedAtMs: number | null = null;

  constructor(
    private readonly writes: WritePath,
    /** The cluster time of the latest commit. */
    private readonly clusterTime: () => Timestamp,
    /** The server's wall clock (ms). */
    private readonly wallMs: () => number = () => 0,
  ) {}

  /** True while commits are recorded (a view is open or history is retained). */
  private get tracking(): boolean {
    return this.writes.tracker === this;
  }

  /** Starts recording commits, history kept since now. */
  private startTracking(): void {
    if (this.tracking) return;
    this.writes.tracker = this;
    this.keptSince = this.clusterTime();
  }

  /**
   * A snapshot read asks for history: commits are kept for the window from now on (see module
   * comment); entries that left the window are freed.
   */
  retain(): void {
    const nowMs = this.wallMs();
    this.startTracking();
    this.retainedAtMs = nowMs;
    this.prune(nowMs);
  }

  /** True while history is retained for snapshot reads. */
  get retaining(): boolean {
    return this.retainedAtMs !== null;
  }

  /** The number of record changes kept in the history (0 once nothing needs any). */
  get retainedChanges(): number {
    let n = 0;
    for (const entry of this.history) n += entry.changes.length;
    return n;
  }

  /**
   * Frees what no open view needs and the window no longer keeps; ends retention (and the
   * recording of commits) once the window has passed since the last request with no view open.
   */
  prune(nowMs: number = this.wallMs()): void {
    if (!this.tracking) return;
    const windowMs = this.windowSecs * 1000;
    if (this.retainedAtMs !== null && nowMs - this.retainedAtMs >= windowMs) this.retainedAtMs = null;
    if (this.views.size === 0 && this.retainedAtMs === null) {
      this.stopTracking();
      return;
    }
    let oldest = this.seq;
    for (const v of this.views) if (v.at < oldest) oldest = v.at;
    const cutoffMs = this.retainedAtMs === null ? Infinity : nowMs - windowMs;
    let drop = 0;
    while (drop < this.history.length) {
      const entry = this.history[drop]!;
      if (entry.seq > oldest || entry.wallMs >= cutoffMs) break;
      for (const c of entry.changes) {
        const key = keyOf(c);
        if (this.lastWrite.get(key) === entry.seq) this.lastWrite.delete(key);
        if (c.before === null && this.births.get(c.record) === entry.seq) this.births.delete(c.record);
      }
      this.keptSince = entry.ts;
      drop++;
    }
    if (drop > 0) this.history = drop === this.history.length ? [] : this.history.slice(drop);
    this.dropIdlePins();
  }

  /** Frees the idle positions no longer readable (history freed before them), and the least recently used past the limit. */
  private dropIdlePins(): void {
    const first = this.seq - this.history.length;
    let idle: Pin[] | null = null;
    for (const pin of this.pins.values()) {
      if (pin.views > 0) continue;
      if (pin.at < first || this.retainedAtMs === null) this.pins.delete(pin.at);
      else (idle ??= []).push(pin);
    }
    if (idle === null || idle.length <= MAX_IDLE_PINS) return;
    idle.sort((a, b) => a.usedAtMs - b.usedAtMs);
    for (let i = 0; i < idle.length - MAX_IDLE_PINS; i++) this.pins.delete(idle[i]!.at);
  }

  /** Stops recording commits: no history kept, none readable but the head. */
  private stopTracking(): void {
    this.writes.tracker = null;
    this.history = [];
    this.lastWrite.clear();
    this.births.clear();
    this.pins.clear();
    this.keptSince = null;
    this.retainedAtMs = null;
  }

  /** Number of open views (serverStatus, tests). */
  get openViews(): number {
    return this.views.size;
  }

  /** Number of committed units kept for open views. */
  get historyLength(): number {
    return this.history.length;
  }

  /** The oldest cluster time a new view may read at (null: any from now on). */
  get oldestReadable(): Timestamp | null {
    return this.keptSince;
  }

  /** A promise while a view is applied (a statement of a transaction or snapshot read runs). */
  get busy(): Promise<void> | null {
    if (!this.running) return null;
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Opens a view of the latest commit, or of the commit at `atClusterTime` (history must be
   * kept since then: the caller checks `oldestReadable`).
   */
  open(writes: boolean, atClusterTime?: Timestamp): ReadView {
    this.startTracking();
    let at = this.seq;
    if (atClusterTime !== undefined) {
      // The kept commits are in cluster-time order: the first one after the time, by halving.
      let lo = 0;
      let hi = this.history.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.history[mid]!.ts.lessThanOrEqual(atClusterTime)) lo = mid + 1;
        else hi = mid;
      }
      at = this.seq - this.history.length + lo;
    }
    const pin = this.pinAt(at);
    pin.views++;
    pin.usedAtMs = this.wallMs();
    const view = new ReadView(at, pin, atClusterTime ?? this.clusterTime(), writes);
    this.views.add(view);
    return view;
  }

  /** The position `at` (kept in the history), made from the commits after it when no view reads there yet. */
  private pinAt(at: number): Pin {
    let pin = this.pins.get(at);
    if (pin !== undefined) return pin;
    pin = new Pin(at);
    const first = this.seq - this.history.length;
    for (let i = Math.max(0, at - first); i < this.history.length; i++) this.note(pin, this.history[i]!.changes);
    this.pins.set(at, pin);
    return pin;
  }

  /** Takes changes committed after `pin`'s position into it (see `Pin`). */
  private note(pin: Pin, changes: readonly RecordChange[]): void {
    for (const c of changes) {
      const coll = c.collection as ViewTarget;
      if (c.before === null || (this.births.get(c.record) ?? 0) > pin.at) {
        // Inserted after the position (a re-insert is a new record): hidden while applied.
        pin.grown.add(coll);
        continue;
      }
      let records = pin.changed.get(coll);
      if (records === undefined) pin.changed.set(coll, (records = new Map()));
      if (!records.has(c.record)) records.set(c.record, c.before);
    }
  }

  /** Closes `view` (its own changes, never committed, are forgotten); drops history no view needs. */
  close(view: ReadView): void {
    if (!view.open) return;
    if (this.applied === view) this.withdraw(view);
    view.open = false;
    this.views.delete(view);
    const pin = view.pin;
    pin.views--;
    pin.usedAtMs = this.wallMs();
    // A transaction's position serves only it; a snapshot read's may be read at again.
    if (pin.views === 0 && (view.writes || !this.retaining)) this.pins.delete(pin.at);
    for (const key of view.ownKeys) if (this.owners.get(key) === view) this.owners.delete(key);
    this.prune();
  }

  /** The write path's report of a committed unit: refused when it conflicts with a transaction. */
  committing(changes: readonly RecordChange[], unit: WriteUnit, clusterTime: Timestamp): void {
    if (changes.length === 0) return;
    const conflict = changes.some((c) => this.owners.has(keyOf(c))) || this.applied !== null || this.running;
    if (conflict) {
      this.undo(changes);
      unit.ops.length = 0;
      throw writeConflict(false);
    }
    this.remember(changes, clusterTime);
  }

  /** Adds `changes`, committed at `clusterTime`, to the history. */
  private remember(changes: readonly RecordChange[], clusterTime: Timestamp): void {
    const seq = ++this.seq;
    const wallMs = this.wallMs();
    this.history.push({ seq, ts: clusterTime, wallMs, changes });
    for (const c of changes) {
      this.lastWrite.set(keyOf(c), seq);
      if (c.before === null) this.births.set(c.record, seq);
    }
    for (const pin of this.pins.values()) this.note(pin, changes);
    const windowMs = this.windowSecs * 1000;
    if (this.retainedAtMs !== null && (wallMs - this.history[0]!.wallMs >= windowMs || wallMs - this.retainedAtMs >= windowMs)) this.prune(wallMs);
  }

  /**
   * Brings the collections to `view`'s state for a statement. The view stays applied after the
   * statement (`release`), so that a transaction's next statements (and its cursors) find its
   * records where they were; the next command of anyone else puts the head back first
   * (`settle`), as does the end of the view.
   */
  apply(view: ReadView): void {
    if (this.applied !== view) {
      if (this.applied !== null) this.withdraw(this.applied);
      this.applied = view;
      const pin = view.pin;
      const displaced = this.displace;
      for (const [coll, records] of pin.changed) {
        const head = new Map<StoredDocument, string | null>();
        for (const rec of records.keys()) head.set(rec, coll.holds(rec) ? (rec.bson ?? null) : null);
        this.head.push([coll, head]);
      }
      const births = this.births;
      const at = pin.at;
      const hidden = (rec: StoredDocument): boolean => (births.get(rec) ?? 0) <= at;
      this.hiding = [...pin.grown];
      for (const coll of this.hiding) coll.hideWhile(hidden);
      for (const [coll, records] of pin.changed) coll.restoreRecords(records, displaced);
      for (const change of view.ownCatalog) change.redo();
      this.redo(view.own, displaced);
    }
    this.running = true;
  }

  /** Notes a record hidden by the applied view that a restored one took the key of (put back by `withdraw`). */
  private readonly displace = (record: StoredDocument, from: WriteTarget): void => {
    this.displaced.push({ collection: from as ViewTarget, record, bson: record.bson ?? null });
  };

  /** The end of a statement run with `view` applied: `pending` (changes not admitted) undone; the view stays applied. */
  release(view: ReadView, pending: readonly RecordChange[] = []): void {
    this.running = false;
    try {
      if (this.applied === view) this.undo(pending, this.displace);
    } finally {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Puts the head back when a view stays applied between statements (before any other command). */
  settle(): void {
    if (this.applied !== null && !this.running) this.withdraw(this.applied);
  }

  /** True while a statement runs with a view applied. */
  private running = false;

  /** Puts the head back after `apply`; `pending`: changes the statement made that were not admitted. */
  withdraw(view: ReadView, pending: readonly RecordChange[] = []): void {
    try {
      this.undo(pending, this.displace);
      this.undo(view.own, this.displace);
      for (let i = view.ownCatalog.length - 1; i >= 0; i--) view.ownCatalog[i]!.undo();
      for (const coll of this.hiding) coll.hideWhile(null);
      this.hiding = [];
      for (const [coll, head] of this.head) coll.restoreRecords(head, this.displace);
      this.head = [];
      const displaced = this.displaced;
      this.displaced = [];
      for (const { collection, record, bson } of displaced) collection.restoreRecord(record, bson);
    } finally {
      // Waiting commands run again whatever happened (a stuck gate would stall every client).
      for (const coll of this.hiding) coll.hideWhile(null);
      this.hiding = [];
      this.head = [];
      this.displaced = [];
      this.applied = null;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  /**
   * Takes a statement's changes into `view`'s own, unless one conflicts (another open
   * transaction changed the record, or a commit after the view did): false then.
   */
  admit(view: ReadView, changes: readonly RecordChange[]): boolean {
    for (const c of changes) {
      const key = keyOf(c);
      const owner = this.owners.get(key);
      if (owner !== undefined && owner !== view) return false;
      if ((this.lastWrite.get(key) ?? 0) > view.at) return false;
    }
    for (const c of changes) {
      const key = keyOf(c);
      view.own.push(c);
      view.ownKeys.add(key);
      if (view.writes) this.owners.set(key, view);
    }
    return true;
  }

  /**
   * Commits `view`'s own changes onto the head (a transaction's commit) and closes it. Throws
   * (with the head unchanged) when they cannot be applied, e.g. a unique key taken meanwhile.
   */
  commit(view: ReadView, clusterTime: () => Timestamp): readonly RecordChange[] {
    if (this.applied === view) this.withdraw(view);
    const own = view.own;
    let done = 0;
    try {
      for (; done < own.length; done++) own[done]!.collection.restoreRecord(own[done]!.record, own[done]!.after);
    } catch (err) {
      this.undo(own.slice(0, done));
      this.close(view);
      throw err;
    }
    this.close(view);
    if (this.tracking && own.length > 0) this.remember(own.slice(), clusterTime());
    return own;
  }

  private undo(changes: readonly RecordChange[], displaced?: Displaced): void {
    for (let i = changes.length - 1; i >= 0; i--) (changes[i]!.collection as ViewTarget).restoreRecord(changes[i]!.record, changes[i]!.before, displaced);
  }

  private redo(changes: readonly RecordChange[], displaced?: Displaced): void {
    for (let i = 0; i < changes.length; i++) (changes[i]!.collection as ViewTarget).restoreRecord(changes[i]!.record, changes[i]!.after, displaced);
  }
}

const stores = new WeakMap<WritePath, SnapshotStore>();

/** The snapshot store of a write path (one per catalog), created on first use. */
export function snapshotsOf(writes: WritePath, clusterTime: () => Timestamp, wallMs?: () => number): SnapshotStore {
  let store = stores.get(writes);
  if (store === undefined) {
    store = new SnapshotStore(writes, clusterTime, wallMs);
    stores.set(writes, store);
  }
  return store;
}

/** The snapshot store of a write path if one was made. */
export function existingSnapshots(writes: WritePath): SnapshotStore | undefined {
  return stores.get(writes);
}
