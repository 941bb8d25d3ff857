/**
 * A session's multi-document transaction (mongod's TransactionParticipant, one node):
 * none → inProgress → committed | aborted, per session and txnNumber. The transaction keeps its
 * snapshot (a `ReadView` of the catalog's snapshot store, taken at its first statement), the
 * operations its statements made (told to the observers as one unit at commit) and when it
 * started (`transactionLifetimeLimitSeconds`, on the server's clock), and the collections and
 * indexes it created (mongod 4.4+: part of the transaction, seen by its own statements only,
 * published by its commit, gone with its abort). The commands layer
 * (`commands/sessions/transaction_statement.ts`) runs statements in it.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import type { ReadView, SnapshotStore } from '../storage/write/snapshots.js';
import type { WriteOp } from '../storage/write/observers.js';
import type { Catalog, TransactionDdl } from '../storage/catalog.js';
import type { Collection } from '../storage/collection.js';

/** mongod's default `transactionLifetimeLimitSeconds`. */
export const DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS = 60;

export type TransactionState = 'inProgress' | 'committed' | 'aborted';

/** The `{ txnNumber: N }` of mongod's messages about a transaction. */
export function txnIdText(txnNumber: bigint): string {
  return `{ txnNumber: ${txnNumber} }`;
}

/** One transaction of a session. */
export class Transaction {
  state: TransactionState = 'inProgress';
  /** Its snapshot, from its first statement until it ends. */
  view: ReadView | null = null;
  /** The operations of its statements, in order. */
  readonly ops: WriteOp[] = [];
  /** The readConcern of its first statement. */
  readConcern: Document | undefined;
  /** Its statements that ran (0: the first is still to run). */
  statements = 0;
  /** The namespaces (`db.coll`) its statements named (Cosmos DB's one-collection rule reads them). */
  readonly namespaces = new Set<string>();
  /**
   * The collections its statements created (explicitly or by a first write), with their
   * options: in the catalog only while its statements run (the view's own catalog changes),
   * for good at commit, when the observers hear of them.
   */
  readonly createdCollections: Array<{ readonly coll: Collection; readonly options: Document }> = [];
  /** The indexes its statements built (on collections it created), told to the observers at commit. */
  readonly createdIndexes: Array<{ readonly coll: Collection; readonly specs: readonly Document[] }> = [];

  constructor(
    readonly txnNumber: bigint,
    /** When it started (the server clock, ms). */
    readonly startedAtMs: number,
    private readonly store: SnapshotStore,
  ) {}

  /** Ends it without a trace: its view closed, its changes forgotten. */
  abort(): void {
    if (this.state !== 'inProgress') return;
    this.state = 'aborted';
    if (this.view !== null) this.store.close(this.view);
    this.view = null;
  }

  /** 251 for a statement of this transaction once aborted. */
  abortedError(): CommandError {
    return new CommandError('NoSuchTransaction', `Transaction with ${txnIdText(this.txnNumber)} has been aborted.`, {
      errorLabels: ['TransientTransactionError'],
    });
  }

  /** 256 for a statement of this transaction once committed. */
  committedError(): CommandError {
    return new CommandError('TransactionCommitted', `Transaction with ${txnIdText(this.txnNumber)} has been committed.`);
  }

  /** True when a collection it created has a name that another collection took since. */
  collectionNameTaken(catalog: Catalog): boolean {
    return this.createdCollections.some(({ coll }) => {
      const holder = catalog.get(coll.db, coll.name);
      return holder !== undefined && holder !== coll;
    });
  }

  /**
   * Where the DDL of a statement run with `view` applied goes (`Catalog.transactionDdl`): a
   * collection it creates becomes one of the view's own catalog changes.
   */
  ddlScope(catalog: Catalog, view: ReadView): TransactionDdl {
    return {
      collectionCreated: (coll, options) => {
        this.createdCollections.push({ coll, options });
        view.ownCatalog.push({ redo: () => void catalog.attach(coll), undo: () => catalog.detach(coll) });
      },
      indexesCreated: (coll, specs) => {
        this.createdIndexes.push({ coll, specs });
      },
      createdHere: (coll) => this.createdCollections.some((c) => c.coll === coll),
    };
  }

  /** True when it has run longer than `limitSeconds` at `nowMs`. */
  expired(nowMs: number, limitSeconds: number): boolean {
    return this.state === 'inProgress' && nowMs - this.startedAtMs >= limitSeconds * 1000;
  }
}
