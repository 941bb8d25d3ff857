/**
 * The observer registry of the write path (WRITE_PATH.md; mongod's `OpObserver`,
 * src/mongo/db/op_observer/op_observer.h): whatever must follow every committed write (the TTL
 * engine's schedules, later the change log, the transaction manager, the profiler) registers an
 * `OpObserver` here instead of hooking a collection. Every event carries the cluster time of the
 * unit that committed it and the wall time of the commit; document events are told in the order
 * their operations were applied, DDL events as the catalog makes the change.
 *
 * This module is below the collection (it names no `Collection`, only the `WriteTarget` a
 * collection is), so that `collection.ts` can report to it.
 */
import type { Document, Timestamp, UUID } from '../../bson/library.js';
import type { StoredDocument } from '../record.js';

/** What a write event names of its collection (a `Collection` is one). */
export interface WriteTarget {
  readonly db: string;
  readonly name: string;
  readonly ns: string;
  readonly uuid: UUID;
  /** True while the collection holds `rec` itself. */
  holds(rec: StoredDocument): boolean;
  /** Puts `rec` into the stored state `bson` (null: absent), telling no one: a transaction's changes applied or withdrawn. */
  restoreRecord(rec: StoredDocument, bson: string | null): void;
}

/** Why the storage removed a document that no client deleted. */
export type DeleteCause = 'ttl' | 'capped' | 'expiredHolder';

/** The kinds of document operation a write unit holds. */
export type WriteOpKind = 'insert' | 'update' | 'replace' | 'delete';

/** What an operator update changed (change streams' `updateDescription`), computed on demand. */
export interface UpdateDescription {
  readonly updatedFields: Document;
  readonly removedFields: string[];
  readonly truncatedArrays: Document[];
}

/**
 * One document operation of a write unit, as applied. `before`/`after` and `updateDescription`
 * are read lazily where they cost a decode (a deletion by the reaper decodes nothing unless an
 * observer asks).
 */
export interface WriteOp {
  /** `db.coll` at the time of the write. */
  readonly ns: string;
  readonly op: WriteOpKind;
  /** The collection written. */
  readonly collection: WriteTarget;
  /** The record written (the same object before and after an update; removed for a delete). */
  readonly record: StoredDocument;
  /** `{ _id }` of the document. */
  readonly documentKey: Document;
  /** The document before the write (update, replace, delete). */
  readonly before?: Document;
  /** The document after the write (insert, update, replace). */
  readonly after?: Document;
  /** For `update`: the fields set and removed. */
  readonly updateDescription?: UpdateDescription;
  /** For a delete the storage made on its own: why (a TTL expiry, capped eviction, an expired key holder). */
  readonly cause?: DeleteCause;
  /** True for the copies an internal move makes (a rename across databases), which change streams skip (mongod's `fromMigrate`). */
  readonly fromMigrate?: boolean;
}

/**
 * The session a committed unit belongs to: a retryable write's or a transaction's (whose
 * operations commit as one unit). Change streams copy `lsid`/`txnNumber` into the events of a
 * transaction; the oplog writes them on its entries.
 */
export interface CommitSession {
  readonly lsid: Document;
  readonly txnNumber: bigint;
  /** True for a multi-document transaction's commit (the unit holds all its operations). */
  readonly inTransaction: boolean;
}

/** When a committed event happened. */
export interface CommitTime {
  /** The unit's cluster time (the logical clock's tick at commit). */
  readonly clusterTime: Timestamp;
  /** The wall time of the commit (the server clock), ms since the epoch. */
  readonly wallTimeMs: number;
  /** The session of a retryable write or transaction that committed the unit. */
  readonly session?: CommitSession;
}

/** A document operation as committed. */
export type WriteEvent = WriteOp & CommitTime;

/** A collection created (explicitly or implicitly). */
export interface CreateCollectionEvent extends CommitTime {
  readonly ns: string;
  readonly collection: WriteTarget;
  readonly options: Document;
}

/** A collection dropped. */
export interface DropCollectionEvent extends CommitTime {
  readonly ns: string;
  readonly collection: WriteTarget;
}

/** A collection renamed, within a database or across databases. */
export interface RenameCollectionEvent extends CommitTime {
  /** The old namespace. */
  readonly from: string;
  /** The new namespace. */
  readonly to: string;
  /** The collection before the rename (the same object as `collection` within a database). */
  readonly source: WriteTarget;
  /** The collection under its new name. */
  readonly collection: WriteTarget;
  /** The collection the rename replaced (`dropTarget`), if any. */
  readonly droppedTarget?: WriteTarget;
}

/** Indexes built on a collection. */
export interface CreateIndexesEvent extends CommitTime {
  readonly ns: string;
  readonly collection: WriteTarget;
  readonly specs: readonly Document[];
}

/** Indexes dropped from a collection. */
export interface DropIndexesEvent extends CommitTime {
  readonly ns: string;
  readonly collection: WriteTarget;
  readonly specs: readonly Document[];
}

/** A collMod: what it changed (its reply's `_old`/`_new` pairs, the options after it). */
export interface CollModEvent extends CommitTime {
  readonly ns: string;
  readonly collection: WriteTarget;
  readonly changes: Document;
  readonly options: Document;
}

/** A database dropped (after the drops of its collections). */
export interface DropDatabaseEvent extends CommitTime {
  readonly db: string;
}

/** An observer of committed writes (mongod's `OpObserver`); every method is optional. */
export interface OpObserver {
  /** Consecutive inserts into one collection, in order. */
  onInserts?(events: readonly WriteEvent[]): void;
  /** An update or replacement of one document. */
  onUpdate?(event: WriteEvent): void;
  /** A deletion of one document. */
  onDelete?(event: WriteEvent): void;
  onCreateCollection?(event: CreateCollectionEvent): void;
  onDropCollection?(event: DropCollectionEvent): void;
  onRenameCollection?(event: RenameCollectionEvent): void;
  onCreateIndexes?(event: CreateIndexesEvent): void;
  onDropIndexes?(event: DropIndexesEvent): void;
  onCollMod?(event: CollModEvent): void;
  onDropDatabase?(event: DropDatabaseEvent): void;
}

/** The names of the DDL notifications, with the event each carries. */
export interface DdlEvents {
  onCreateCollection: CreateCollectionEvent;
  onDropCollection: DropCollectionEvent;
  onRenameCollection: RenameCollectionEvent;
  onCreateIndexes: CreateIndexesEvent;
  onDropIndexes: DropIndexesEvent;
  onCollMod: CollModEvent;
  onDropDatabase: DropDatabaseEvent;
}

/** The observers of one catalog, told in the order they were added. */
export class ObserverRegistry {
  private observers: OpObserver[] = [];

  /** Adds `observer`; returns a function that removes it again. */
  add(observer: OpObserver): () => void {
    this.observers = [...this.observers, observer];
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
    };
  }

  /** Tells every observer of the committed document operations `ops`, stamped with `time`. */
  tellWrites(ops: readonly WriteOp[], time: CommitTime): void {
    const observers = this.observers;
    if (observers.length === 0 || ops.length === 0) return;
    const events = ops as WriteEvent[];
    for (let k = 0; k < ops.length; k++) stamp(ops[k]!, time);
    let i = 0;
    while (i < events.length) {
      const event = events[i]!;
      if (event.op === 'insert') {
        // A run of inserts into one collection is one `onInserts` (mongod's batch).
        let j = i + 1;
        while (j < events.length && events[j]!.op === 'insert' && events[j]!.collection === event.collection) j++;
        const batch = i === 0 && j === events.length ? events : events.slice(i, j);
        for (const o of observers) o.onInserts?.(batch);
        i = j;
        continue;
      }
      if (event.op === 'delete') for (const o of observers) o.onDelete?.(event);
      else for (const o of observers) o.onUpdate?.(event);
      i++;
    }
  }

  /** Tells every observer of one DDL change. */
  tellDdl<K extends keyof DdlEvents>(kind: K, event: DdlEvents[K]): void {
    for (const o of this.observers) (o[kind] as ((e: DdlEvents[K]) => void) | undefined)?.call(o, event);
  }
}

/**
 * `op` with the commit's times: the operation itself becomes the event (a unit's operations are
 * its own, and committed once), so its lazy fields stay lazy.
 */
function stamp(op: WriteOp, time: CommitTime): WriteEvent {
  const event = op as WriteOp & { clusterTime: Timestamp; wallTimeMs: number; session?: CommitSession };
  event.clusterTime = time.clusterTime;
  event.wallTimeMs = time.wallTimeMs;
  if (time.session !== undefined) event.session = time.session;
  return event;
}
