/**
 * Write units (WRITE_PATH.md; mongod's `WriteUnitOfWork`): every change a collection makes to
 * its documents is an operation `{ ns, op, documentKey, before?, after?, updateDescription? }`
 * recorded in the open unit, side effects included (a capped collection's eviction, the removal
 * of an expired holder of a unique key, the documents of an implicitly created collection).
 * Operations are applied as they are recorded, as mongod writes into its storage inside a unit;
 * `commit` then takes one cluster time from the logical clock and tells the observers
 * (`observers.ts`) of every operation, in order. A write made with no unit open is a unit of its
 * own. Node runs one command at a time, so a unit that a statement opens and commits
 * synchronously is atomic.
 */
import { Timestamp, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { decodeStored } from '../record_format.js';
import { documentFields, type StoredDocument } from '../record.js';
import { valuesEqual } from '../values/compare.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isDocument } from '../values/paths.js';
import { ObserverRegistry, type CommitSession, type CommitTime, type DdlEvents, type DeleteCause, type UpdateDescription, type WriteOp, type WriteOpKind, type WriteTarget } from './observers.js';

/** The clocks a commit reads: the cluster time (`LogicalClock.tick`) and the wall time. */
export interface CommitClocks {
  readonly clusterTime: () => Timestamp;
  readonly wallTimeMs: () => number;
}

/** Clocks for a catalog no server gave clocks to (unit tests): a counter and the system time. */
function standaloneClocks(): CommitClocks {
  let inc = 0;
  return {
    clusterTime: () => new Timestamp({ t: Math.floor(Date.now() / 1000), i: ++inc }),
    wallTimeMs: () => Date.now(),
  };
}

const ID_ONLY: readonly string[] = ['_id'];

/** The operation of an insert: `after` is the document stored. */
class InsertOp implements WriteOp {
  readonly op = 'insert';
  readonly ns: string;
  constructor(
    readonly collection: WriteTarget,
    readonly record: StoredDocument,
    private readonly inserted: Document,
    readonly fromMigrate: boolean | undefined,
  ) {
    this.ns = collection.ns;
  }
  get documentKey(): Document {
    return { _id: this.inserted._id };
  }
  get after(): Document {
    return this.inserted;
  }
}

/**
 * The operation of an update or replacement. `before` is decoded from the bytes the record held
 * (`beforeBson`) or was given whole; `after` is read from the record's bytes as they were just
 * after the write (`afterBson`), or given.
 */
class UpdateOp implements WriteOp {
  readonly ns: string;
  private beforeDoc: Document | undefined;
  private afterDoc: Document | undefined;
  private description: UpdateDescription | undefined;
  constructor(
    readonly op: 'update' | 'replace',
    readonly collection: WriteTarget,
    readonly record: StoredDocument,
    private readonly beforeBson: string | undefined,
    before: Document | undefined,
    private readonly afterBson: string | undefined,
    after: Document | undefined,
  ) {
    this.ns = collection.ns;
    this.beforeDoc = before;
    this.afterDoc = after;
  }
  get documentKey(): Document {
    return { _id: this.after._id };
  }
  get before(): Document | undefined {
    if (this.beforeDoc === undefined && this.beforeBson !== undefined) this.beforeDoc = decodeStored(this.beforeBson);
    return this.beforeDoc;
  }
  get after(): Document {
    return (this.afterDoc ??= this.afterBson === undefined ? this.record.doc : decodeStored(this.afterBson));
  }
  get updateDescription(): UpdateDescription | undefined {
    const before = this.before;
    if (this.op !== 'update' || before === undefined) return undefined;
    return (this.description ??= describeUpdate(before, this.after));
  }
}

/** The operation of a deletion: the record keeps its bytes, decoded only when asked. */
class DeleteOp implements WriteOp {
  readonly op = 'delete';
  readonly ns: string;
  constructor(
    readonly collection: WriteTarget,
    readonly record: StoredDocument,
    readonly cause: DeleteCause | undefined,
    readonly fromMigrate: boolean | undefined,
  ) {
    this.ns = collection.ns;
  }
  get documentKey(): Document {
    return { _id: documentFields(this.record, ID_ONLY)._id };
  }
  get before(): Document {
    return this.record.doc;
  }
}

/**
 * What an update changed, as change streams describe it: each changed field by its dotted path
 * (into embedded documents changed in part; arrays and other values whole), each removed field.
 */
export function describeUpdate(before: Document, after: Document): UpdateDescription {
  const updatedFields: Document = {};
  const removedFields: string[] = [];
  const walk = (a: Document, b: Document, prefix: string): void => {
    for (const key of Object.keys(b)) {
      const path = prefix + key;
      const old = a[key];
      const now = b[key];
      if (!Object.hasOwn(a, key)) updatedFields[path] = now;
      else if (isDocument(old) && isDocument(now) && !Array.isArray(old) && !Array.isArray(now)) walk(old, now, `${path}.`);
      else if (bsonTypeOf(old) !== bsonTypeOf(now) || !valuesEqual(old, now)) updatedFields[path] = now;
    }
    for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) removedFields.push(prefix + key);
  };
  walk(before, after, '');
  return { updatedFields, removedFields, truncatedArrays: [] };
}

/** The operations of one unit, applied, waiting for the commit. */
export class WriteUnit {
  readonly ops: WriteOp[] = [];
  /** While a change tracker is set: the records the unit changed, first touch first, with their bytes before. */
  touched: Map<StoredDocument, TouchedRecord> | null = null;
  /** The fromMigrate flag of the unit's operations (an internal move); the session that writes. */
  constructor(readonly fromMigrate: boolean, readonly session?: CommitSession) {}
}

/** A record a unit changed: its collection and its stored bytes before the unit (null: absent). */
export interface TouchedRecord {
  readonly collection: WriteTarget;
  readonly before: string | null;
}

/** The net change of one record by one unit: stored bytes before and after (null: absent). */
export interface RecordChange {
  readonly collection: WriteTarget;
  readonly record: StoredDocument;
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * Told of the net record changes of each unit while it is set (`WritePath.tracker`): the
 * snapshot store of transactions and snapshot reads (snapshots.ts). `committing` may refuse a
 * unit (it throws after the unit's changes were withdrawn); `captured` takes the changes of a
 * unit run by `capture` (a transaction's statement), which observers are not told of.
 */
export interface ChangeTracker {
  committing(changes: readonly RecordChange[], unit: WriteUnit, clusterTime: Timestamp): void;
}

/** Options of `WritePath.run`. */
export interface UnitOptions {
  /** The unit's operations are an internal move (change streams skip them). */
  readonly fromMigrate?: boolean;
  /** The retryable write or transaction the unit commits for (told to the observers). */
  readonly session?: CommitSession;
}

/**
 * The one write path of a catalog: the open unit, the observers and the clocks. Collections
 * record their operations here (`Collection.writes`); executors run each statement in a unit.
 */
export class WritePath {
  readonly observers = new ObserverRegistry();
  /**
   * A limit on stored documents below mongod's 16 MiB (Cosmos DB's 2 MB, src/cosmos/): documents
   * over `maxBytes` are refused with the error `tooLarge` makes; null: mongod's limit only.
   */
  documentLimit: { readonly maxBytes: number; tooLarge(size: number, maxBytes: number): Error } | null = null;
  private clocks: CommitClocks = standaloneClocks();
  private unit: WriteUnit | null = null;
  /** Set while transactions or snapshot reads are open: told of every unit's record changes. */
  tracker: ChangeTracker | null = null;
  /** While a transaction's statement runs (`capture`): its units' operations and changes, kept from the observers. */
  private captured: { ops: WriteOp[]; changes: RecordChange[] } | null = null;
  /** While set, writes are recorded nowhere: a transaction's changes applied or withdrawn. */
  private silent = false;

  /** Commits read these clocks from now on (the server's logical and wall clocks). */
  useClocks(clocks: CommitClocks): void {
    this.clocks = clocks;
  }

  /** True while a unit is open. */
  get inUnit(): boolean {
    return this.unit !== null;
  }

  /**
   * Runs `work` in a unit and commits it, also when `work` throws (what it applied before the
   * error stays applied, as a statement's earlier writes do). Within an open unit `work` joins it.
   */
  run<T>(work: () => T, options?: UnitOptions): T {
    if (this.unit !== null) return work();
    const unit = new WriteUnit(options?.fromMigrate === true, options?.session);
    if (this.tracker !== null) unit.touched = new Map();
    this.unit = unit;
    try {
      return work();
    } finally {
      this.unit = null;
      this.commit(unit);
    }
  }

  /**
   * Runs `work` (a transaction's statement, which may wait) with its units' operations and
   * record changes kept from the observers and returned with its result (or its error, with
   * what it applied before it).
   */
  async capture<T>(work: () => T | Promise<T>): Promise<{ result?: T; error?: unknown; ops: WriteOp[]; changes: RecordChange[] }> {
    const captured = { ops: [] as WriteOp[], changes: [] as RecordChange[] };
    const outer = this.captured;
    this.captured = captured;
    try {
      return { result: await work(), ...captured };
    } catch (error) {
      return { error, ...captured };
    } finally {
      this.captured = outer;
    }
  }

  /** Runs `work` with its writes recorded nowhere (a transaction's changes applied or withdrawn). */
  silently(work: () => void): void {
    const outer = this.silent;
    this.silent = true;
    try {
      work();
    } finally {
      this.silent = outer;
    }
  }

  /** Tells the observers of a transaction's operations as one committed unit. */
  commitTransaction(ops: WriteOp[], session: CommitSession): Timestamp {
    const stamp = this.stamp();
    if (ops.length > 0) this.observers.tellWrites(ops, { ...stamp, session });
    return stamp.clusterTime;
  }

  /** Records an insert of `rec` (holding `doc`) into `coll`. */
  inserted(coll: WriteTarget, rec: StoredDocument, doc: Document): void {
    if (this.silent) return;
    this.touch(coll, rec, null);
    this.record(new InsertOp(coll, rec, doc, this.unit?.fromMigrate || undefined));
  }

  /**
   * Records an update (`replace`: a replacement) of `rec`: `before` as given (whole) or the
   * bytes the record held (`beforeBson`); `after` as given or the bytes it holds now.
   */
  updated(coll: WriteTarget, op: 'update' | 'replace', rec: StoredDocument, before: { bson?: string; doc?: Document }, after: { bson?: string; doc?: Document }): void {
    if (this.silent) return;
    if (before.bson !== undefined) this.touch(coll, rec, before.bson);
    this.record(new UpdateOp(op, coll, rec, before.bson, before.doc, after.bson, after.doc));
  }

  /** Records the removal of `rec` from `coll`, with its cause when the storage removed it on its own. */
  deleted(coll: WriteTarget, rec: StoredDocument, cause?: DeleteCause): void {
    if (this.silent) return;
    if (rec.bson !== undefined) this.touch(coll, rec, rec.bson);
    this.record(new DeleteOp(coll, rec, cause, this.unit?.fromMigrate || undefined));
  }

  /**
   * A fresh cluster time for a value the write stores (an insert's top-level `Timestamp(0, 0)`,
   * which mongod replaces with the next timestamp: `fixDocumentForInsert`).
   */
  nextTimestamp(): Timestamp {
    return this.clocks.clusterTime();
  }

  /** Tells the observers of a DDL change now, stamped with a fresh cluster time. */
  ddl<K extends keyof DdlEvents>(kind: K, event: Omit<DdlEvents[K], keyof CommitTime>): void {
    this.observers.tellDdl(kind, { ...event, ...this.stamp() } as DdlEvents[K]);
  }

  /** Notes the bytes `rec` held before its unit first changed it (only while a tracker is set). */
  private touch(coll: WriteTarget, rec: StoredDocument, before: string | null): void {
    if (this.tracker === null && this.captured === null) return;
    const unit = this.unit;
    if (unit === null) {
      // A write of its own: its unit is this one change.
      this.pending = { collection: coll, record: rec, before, after: null };
      return;
    }
    const touched = (unit.touched ??= new Map());
    if (!touched.has(rec)) touched.set(rec, { collection: coll, before });
  }

  /** The change of a write made with no unit open, waiting for its operation. */
  private pending: RecordChange | null = null;

  private record(op: WriteOp): void {
    const unit = this.unit;
    if (unit !== null) {
      unit.ops.push(op);
      return;
    }
    const lone = new WriteUnit(op.fromMigrate === true);
    lone.ops.push(op);
    const pending = this.pending;
    this.pending = null;
    if (pending !== null) lone.touched = new Map([[pending.record, { collection: pending.collection, before: pending.before }]]);
    this.commit(lone);
  }

  /** The net change of each record `unit` touched (bytes before and now), unchanged ones left out. */
  private changesOf(unit: WriteUnit): RecordChange[] {
    const changes: RecordChange[] = [];
    if (unit.touched === null) return changes;
    for (const [record, { collection, before }] of unit.touched) {
      const after = collection.holds(record) ? (record.bson ?? null) : null;
      if (before !== after) changes.push({ collection, record, before, after });
    }
    return changes;
  }

  private commit(unit: WriteUnit): void {
    const captured = this.captured;
    if (captured !== null) {
      captured.ops.push(...unit.ops);
      captured.changes.push(...this.changesOf(unit));
      return;
    }
    if (unit.ops.length === 0) return;
    const stamp = this.stamp();
    if (this.tracker !== null && unit.touched !== null) this.tracker.committing(this.changesOf(unit), unit, stamp.clusterTime);
    this.observers.tellWrites(unit.ops, unit.session === undefined ? stamp : { ...stamp, session: unit.session });
  }

  private stamp(): CommitTime {
    return { clusterTime: this.clocks.clusterTime(), wallTimeMs: this.clocks.wallTimeMs() };
  }
}

/** A write path that records nothing: collections outside a catalog. */
export const DETACHED_WRITES = new WritePath();

/** mongod's message for a write-write conflict (8.x). */
export const WRITE_CONFLICT_MESSAGE =
  'Caused by :: Write conflict during plan execution and yielding is disabled. :: Please retry your write operation or multi-document transaction.';

/** A 112 WriteConflict with the TransientTransactionError label when `inTransaction`. */
export function writeConflict(inTransaction: boolean): CommandError {
  return new CommandError('WriteConflict', WRITE_CONFLICT_MESSAGE, inTransaction ? { errorLabels: ['TransientTransactionError'] } : undefined);
}

/** Told of a record hidden by the applied view that a restored record took a key of, once taken out of `from`. */
export type Displaced = (holder: StoredDocument, from: WriteTarget) => void;

export type { WriteOpKind };
