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
  /** The fromMigrate flag of the unit's operations (an internal move); the session that writes. */
  constructor(readonly fromMigrate: boolean, readonly session?: CommitSession) {}
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
    this.unit = unit;
    try {
      return work();
    } finally {
      this.unit = null;
      this.commit(unit);
    }
  }

  /** Records an insert of `rec` (holding `doc`) into `coll`. */
  inserted(coll: WriteTarget, rec: StoredDocument, doc: Document): void {
    this.record(new InsertOp(coll, rec, doc, this.unit?.fromMigrate || undefined));
  }

  /**
   * Records an update (`replace`: a replacement) of `rec`: `before` as given (whole) or the
   * bytes the record held (`beforeBson`); `after` as given or the bytes it holds now.
   */
  updated(coll: WriteTarget, op: 'update' | 'replace', rec: StoredDocument, before: { bson?: string; doc?: Document }, after: { bson?: string; doc?: Document }): void {
    this.record(new UpdateOp(op, coll, rec, before.bson, before.doc, after.bson, after.doc));
  }

  /** Records the removal of `rec` from `coll`, with its cause when the storage removed it on its own. */
  deleted(coll: WriteTarget, rec: StoredDocument, cause?: DeleteCause): void {
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

  private record(op: WriteOp): void {
    const unit = this.unit;
    if (unit !== null) unit.ops.push(op);
    else this.observers.tellWrites([op], this.stamp());
  }

  private commit(unit: WriteUnit): void {
    if (unit.ops.length === 0) return;
    const stamp = this.stamp();
    this.observers.tellWrites(unit.ops, unit.session === undefined ? stamp : { ...stamp, session: unit.session });
  }

  private stamp(): CommitTime {
    return { clusterTime: this.clocks.clusterTime(), wallTimeMs: this.clocks.wallTimeMs() };
  }
}

/** A write path that records nothing: collections outside a catalog. */
export const DETACHED_WRITES = new WritePath();

export type { WriteOpKind };
