/**
 * The statements of a multi-document transaction (`autocommit: false` with `lsid` and
 * `txnNumber`; the first with `startTransaction: true`): mongod's checks of the session
 * arguments (initialize_operation_session_info.cpp, transaction_validation.cpp), the
 * transaction's state machine (TransactionParticipant::beginOrContinue), and each statement run
 * with the transaction's snapshot applied (storage/write/snapshots.ts), its writes captured
 * into the transaction rather than committed. A statement that fails aborts the transaction; a
 * write-write conflict is 112 WriteConflict with the TransientTransactionError label.
 */
import { Timestamp, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { sessionCatalogOf, type SessionRecord } from '../../sessions/session_catalog.js';
import { Transaction, txnIdText } from '../../sessions/transaction.js';
import { isDocument } from '../../storage/values/paths.js';
import { snapshotsOf, writeConflict, type ReadView, type SnapshotStore } from '../../storage/write/snapshots.js';
import { cosmosCheckTransactionStatement } from '../../cosmos/rules/transaction_limits.js';
import type { CommandContext, CommandDefinition } from '../types.js';

/** The commands a transaction may run (mongod's commands that allow transactions). */
const ALLOWED_IN_TRANSACTION: ReadonlySet<string> = new Set([
  'abortTransaction', 'aggregate', 'bulkWrite', 'commitTransaction', 'create', 'createIndexes', 'delete', 'distinct', 'find',
  'findAndModify', 'getMore', 'insert', 'killCursors', 'update',
]);
/** The commands a transaction may run on the admin database. */
const ADMIN_IN_TRANSACTION: ReadonlySet<string> = new Set(['abortTransaction', 'bulkWrite', 'commitTransaction']);
/** Commands that write into the collection they name. */
const WRITE_COMMANDS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'findAndModify']);
/** Aggregation stages a transaction may not run. */
const STAGES_NOT_IN_TRANSACTION: ReadonlySet<string> = new Set([
  '$changeStream', '$collStats', '$currentOp', '$indexStats', '$listLocalSessions', '$listSessions', '$merge', '$out', '$planCacheStats', '$unionWith',
]);
/** Read concern levels a transaction may use. */
const TRANSACTION_READ_CONCERNS: ReadonlySet<unknown> = new Set([undefined, 'local', 'majority', 'snapshot']);

/** A statement of a transaction, checked by the gate. */
export interface TransactionStatement {
  readonly session: SessionRecord;
  readonly txnNumber: bigint;
  readonly start: boolean;
  /** The statement's readConcern (taken off the command: the transaction applies it). */
  readonly readConcern: Document | undefined;
}

/**
 * Checks the transaction arguments of a statement (`autocommit` given; a replica set; the
 * session and txnNumber parsed by the caller) and returns the statement.
 */
export function checkTransactionStatement(
  ctx: CommandContext,
  def: CommandDefinition,
  body: Document,
  session: SessionRecord | undefined,
  txnNumber: bigint | undefined,
): TransactionStatement {
  if (typeof body.autocommit !== 'boolean') throw new CommandError('TypeMismatch', `BSON field 'OperationSessionInfoFromClient.autocommit' is the wrong type '${typeof body.autocommit}', expected type 'bool'`);
  if (txnNumber === undefined) throw new CommandError('InvalidOptions', "'autocommit' field requires a transaction number to also be specified");
  if (session === undefined) throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
  if (body.autocommit) throw new CommandError('InvalidOptions', 'Specifying autocommit=true is not allowed.');
  const start = body.startTransaction !== undefined && body.startTransaction !== null;
  if (start && body.startTransaction !== true) {
    if (typeof body.startTransaction !== 'boolean') throw new CommandError('TypeMismatch', "BSON field 'OperationSessionInfoFromClient.startTransaction' is the wrong type, expected type 'bool'");
    throw new CommandError('InvalidOptions', 'Specifying startTransaction=false is not allowed.');
  }
  if (start) {
    if (def.name === 'killCursors') throw new CommandError('OperationNotSupportedInTransaction', 'Cannot run killCursors as the first operation in a multi-document transaction.');
    if (def.name === 'commitTransaction') throw new CommandError('OperationNotSupportedInTransaction', 'Cannot start a transaction with a commit');
    if (def.name === 'abortTransaction') throw new CommandError('OperationNotSupportedInTransaction', 'Cannot start a transaction with an abort');
  }
  if (!ALLOWED_IN_TRANSACTION.has(def.name)) {
    throw new CommandError('OperationNotSupportedInTransaction', `Cannot run '${def.name}' in a multi-document transaction.`);
  }
  if (ctx.db === 'config' || ctx.db === 'local' || (ctx.db === 'admin' && !ADMIN_IN_TRANSACTION.has(def.name))) {
    throw new CommandError('OperationNotSupportedInTransaction', `Cannot run command against the '${ctx.db}' database in a transaction.`);
  }
  if (def.name !== 'commitTransaction' && def.name !== 'abortTransaction' && body.writeConcern !== undefined) {
    throw new CommandError('InvalidOptions', 'writeConcern is not allowed within a multi-statement transaction');
  }
  let readConcern: Document | undefined;
  if (body.readConcern !== undefined && start) {
    if (isDocument(body.readConcern)) {
      readConcern = body.readConcern;
      if (!TRANSACTION_READ_CONCERNS.has(readConcern.level)) {
        throw new CommandError('InvalidOptions', "The readConcern level must be either 'local' (default), 'majority' or 'snapshot' in order to run in a transaction");
      }
      if (readConcern.atClusterTime !== undefined && readConcern.level !== 'snapshot') {
        throw new CommandError('InvalidOptions', 'atClusterTime field can be set only if level is equal to snapshot');
      }
      // The transaction applies it; the statement's own checks see none.
      delete body.readConcern;
    }
  }
  checkStages(def, body);
  checkTarget(ctx, def, body);
  return { session, txnNumber, start, readConcern };
}

/** An aggregation's stages a transaction refuses (263). */
function checkStages(def: CommandDefinition, body: Document): void {
  if (def.name !== 'aggregate' || !Array.isArray(body.pipeline)) return;
  for (const stage of body.pipeline) {
    if (!isDocument(stage)) continue;
    for (const name in stage) {
      if (STAGES_NOT_IN_TRANSACTION.has(name)) {
        throw new CommandError('OperationNotSupportedInTransaction', `Stage not supported inside of a multi-document transaction: ${name}`);
      }
    }
  }
}

/**
 * Writes to a capped collection are refused (263). (createIndexes checks its collection itself,
 * with the transaction's view applied: commands/indexes/create_indexes.ts.)
 */
function checkTarget(ctx: CommandContext, def: CommandDefinition, body: Document): void {
  const name = body[def.name];
  if (typeof name !== 'string') return;
  const coll = ctx.server.catalog.get(ctx.db, name);
  if (coll === undefined) return;
  if (WRITE_COMMANDS.has(def.name) && coll.options.capped === true) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      `Collection '${coll.ns}' is a capped collection. Writes in transactions are not allowed on capped collections.`,
    );
  }
}

/** The session's UUID as mongod prints a LogicalSessionId (`<uuid> - <uid>`). */
export function sessionName(session: SessionRecord): string {
  const hex = session.id.toString('hex');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return `${uuid} - ${session.uid.toString('hex').toUpperCase()}`;
}

/** The snapshot store of the server's catalog. */
export function serverSnapshots(ctx: CommandContext): SnapshotStore {
  return snapshotsOf(ctx.server.catalog.writes, () => ctx.server.logicalClock.now(), () => ctx.server.clock.now());
}

/**
 * The transaction a statement runs in (TransactionParticipant::beginOrContinue): a new one for
 * `startTransaction` at a newer txnNumber, else the session's at this txnNumber, in progress.
 * Commit and abort see it whatever its state (they answer for it themselves).
 */
function beginOrContinue(ctx: CommandContext, def: CommandDefinition, stmt: TransactionStatement): Transaction {
  const { session, txnNumber } = stmt;
  const catalog = sessionCatalogOf(ctx.server);
  catalog.expireTransactions(ctx.now());
  const active = session.txnNumber;
  if (active !== undefined && txnNumber < active) {
    throw new CommandError(
      'TransactionTooOld',
      `Cannot ${stmt.start ? 'start' : 'continue'} transaction ${txnNumber} on session ${sessionName(session)} because a newer transaction ${active} has already started.`,
    );
  }
  if (stmt.start) {
    if (active !== undefined && txnNumber === active) {
      throw new CommandError('ConflictingOperationInProgress', 'Only servers in a sharded cluster can start a new transaction at the active transaction number');
    }
    session.transaction?.abort();
    session.txnNumber = txnNumber;
    session.statements.clear();
    const txn = new Transaction(txnNumber, ctx.now(), serverSnapshots(ctx));
    txn.readConcern = stmt.readConcern;
    session.transaction = txn;
    catalog.transactionStarted(session);
    return txn;
  }
  const txn = session.transaction;
  if (txn === undefined || active === undefined || txnNumber > active || txn.txnNumber !== txnNumber) {
    throw new CommandError(
      'NoSuchTransaction',
      `Given transaction number ${txnNumber} does not match any in-progress transactions. The active transaction number is ${active ?? -1}`,
      { errorLabels: ['TransientTransactionError'] },
    );
  }
  if (def.name === 'commitTransaction' || def.name === 'abortTransaction') return txn;
  if (txn.state === 'aborted') throw txn.abortedError();
  if (txn.state === 'committed') throw txn.committedError();
  return txn;
}

/** The transaction of a commit or abort command (the gate checked it). */
const CURRENT = new WeakMap<Document, Transaction>();

/** The transaction `commitTransaction`/`abortTransaction` was sent for. */
export function transactionOf(body: Document): Transaction | undefined {
  return CURRENT.get(body);
}

/** Runs a statement of a transaction (see module comment). */
export async function runTransactionStatement(ctx: CommandContext, def: CommandDefinition, body: Document, stmt: TransactionStatement): Promise<Document> {
  const txn = beginOrContinue(ctx, def, stmt);
  if (!stmt.start && body.readConcern !== undefined) {
    throw new CommandError('InvalidOptions', 'Only the first command in a transaction may specify a readConcern');
  }
  if (def.name === 'commitTransaction' || def.name === 'abortTransaction') {
    CURRENT.set(body, txn);
    return def.run(ctx, body);
  }
  checkCosmosTransaction(ctx, def, body, txn);
  const store = serverSnapshots(ctx);
  for (let busy = store.busy; busy !== null; busy = store.busy) await busy;
  if (txn.state !== 'inProgress') throw txn.abortedError();
  if (txn.view === null) txn.view = openView(ctx, store, txn);
  const view = txn.view;
  const catalog = ctx.server.catalog;
  // A collection it created whose name another took since (outside it, or a transaction that
  // committed first): mongod's commit would fail with 112; this statement does already.
  if (txn.collectionNameTaken(catalog)) {
    txn.abort();
    throw writeConflict(true);
  }
  try {
    store.apply(view);
  } catch (err) {
    store.release(view);
    txn.abort();
    throw err;
  }
  catalog.transactionDdl = txn.ddlScope(catalog, view);
  let outcome: Awaited<ReturnType<typeof catalog.writes.capture<Document>>>;
  try {
    outcome = await catalog.writes.capture(() => def.run(ctx, body));
  } finally {
    catalog.transactionDdl = null;
  }
  const reply = outcome.result;
  const failed = outcome.error !== undefined || (Array.isArray(reply?.writeErrors) && reply.writeErrors.length > 0);
  const admitted = !failed && (outcome.changes.length === 0 || store.admit(view, outcome.changes));
  store.release(view, admitted ? [] : outcome.changes);
  txn.statements++;
  if (failed) {
    // A failed statement aborts its transaction, as in mongod.
    txn.abort();
    // A key held by a record committed after the snapshot (hidden from it): a write-write
    // conflict, which mongod answers as the command's error, not a write error.
    if (Array.isArray(reply?.writeErrors) && reply.writeErrors.some((e: Document) => e.code === 112)) throw writeConflict(true);
    if (outcome.error !== undefined) throw outcome.error;
    return reply!;
  }
  if (!admitted) {
    txn.abort();
    throw writeConflict(true);
  }
  txn.ops.push(...outcome.ops);
  return reply!;
}

/**
 * Cosmos DB mode's `transactionLimits` rule: one collection and 5 s per transaction; past them
 * the statement fails and the transaction is aborted (src/cosmos/rules/transaction_limits.ts).
 */
function checkCosmosTransaction(ctx: CommandContext, def: CommandDefinition, body: Document, txn: Transaction): void {
  if (!ctx.server.settings.cosmos?.rules.transactionLimits) return;
  const target = body[def.name];
  const ns = typeof target === 'string' ? `${ctx.db}.${target}` : `${ctx.db}.$cmd`;
  try {
    cosmosCheckTransactionStatement(txn, ns, ctx.now());
  } catch (err) {
    txn.abort();
    throw err;
  }
  txn.namespaces.add(ns);
}

/** The transaction's snapshot: now, or its readConcern's `atClusterTime`. */
function openView(ctx: CommandContext, store: SnapshotStore, txn: Transaction): ReadView {
  const at = txn.readConcern?.atClusterTime;
  if (at instanceof Timestamp) {
    checkClusterTime(ctx, store, at);
    return store.open(true, at);
  }
  return store.open(true);
}

/** mongod's errors for a snapshot read at a time in the future or older than the history kept. */
export function checkClusterTime(ctx: CommandContext, store: SnapshotStore, at: Timestamp): void {
  const now = ctx.server.logicalClock.now();
  if (at.greaterThan(now)) {
    throw new CommandError(
      'InvalidOptions',
      `readConcern atClusterTime value must not be greater than the current clusterTime. Requested clusterTime: ${describe(at)}; current clusterTime: ${describe(now)}`,
    );
  }
  const oldest = store.oldestReadable ?? now;
  if (at.lessThan(oldest)) {
    throw new CommandError('SnapshotTooOld', `Read timestamp ${describe(at)} is older than the oldest available timestamp.`);
  }
}

function describe(ts: Timestamp): string {
  return `Timestamp(${ts.t}, ${ts.i})`;
}

/** `txnIdText` for the commands. */
export { txnIdText };

/** Codes of a primary that stepped down or shuts down, and of network failures (retryable). */
const RETRYABLE_CODES: ReadonlySet<number> = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);
/** Codes a transaction's statement labels TransientTransactionError (mongod's error_labels.cpp). */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([24, 112, 239, 246, 251, 267]);
/** Write concern errors that do not leave a commit's result unknown. */
const DEFINITE_WRITE_CONCERN_CODES: ReadonlySet<number> = new Set([79, 100]);

function addLabels(existing: unknown, labels: readonly string[]): string[] {
  const out = Array.isArray(existing) ? [...(existing as string[])] : [];
  for (const label of labels) if (!out.includes(label)) out.push(label);
  return out;
}

/**
 * The error labels mongod gives an error of a transaction's statement (`body` has
 * `autocommit`), or of commit/abort: TransientTransactionError for a conflict or a lost
 * transaction (and, but on commit/abort, a stepped-down primary or a network error),
 * UnknownTransactionCommitResult for a commit whose outcome is unknown, RetryableWriteError for
 * a commit or abort that may be retried. Labels already present (a fail point's) are kept.
 */
export function withTransactionLabels(err: unknown, body: Document, command: string): unknown {
  if (!(err instanceof CommandError) || body.autocommit === undefined) return err;
  if (err.extra !== undefined && Object.hasOwn(err.extra, 'errorLabels')) return err;
  const code = err.code;
  const commitOrAbort = command === 'commitTransaction' || command === 'abortTransaction';
  const labels: string[] = [];
  if (TRANSIENT_CODES.has(code) && command !== 'abortTransaction') labels.push('TransientTransactionError');
  if (!commitOrAbort && RETRYABLE_CODES.has(code)) labels.push('TransientTransactionError');
  if (commitOrAbort && RETRYABLE_CODES.has(code)) labels.push('RetryableWriteError');
  if (command === 'commitTransaction' && (RETRYABLE_CODES.has(code) || code === 50)) labels.push('UnknownTransactionCommitResult');
  if (labels.length === 0) return err;
  return new CommandError(code, err.message, { ...err.extra, errorLabels: addLabels(undefined, labels) });
}

/** A commit's reply with a write concern error: UnknownTransactionCommitResult (and RetryableWriteError when retryable). */
export function labelCommitReply(reply: Document, command: string): void {
  if (command !== 'commitTransaction' && command !== 'abortTransaction') return;
  const wce = reply.writeConcernError;
  if (!isDocument(wce)) return;
  const code = Number(wce.code);
  const labels: string[] = [];
  if (RETRYABLE_CODES.has(code)) labels.push('RetryableWriteError');
  if (command === 'commitTransaction' && !DEFINITE_WRITE_CONCERN_CODES.has(code)) labels.push('UnknownTransactionCommitResult');
  if (labels.length > 0) reply.errorLabels = addLabels(reply.errorLabels, labels);
}
