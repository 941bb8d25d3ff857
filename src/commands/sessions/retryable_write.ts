/**
 * Retryable writes (the retryable-writes spec; mongod's TransactionParticipant for a retryable
 * write), recorded at the command level: a write command that carries `lsid` and `txnNumber` on
 * the replica set runs one statement at a time, and each statement that succeeds leaves its
 * result in the session's record under its stmtId. The same txnNumber sent again answers the
 * recorded results of the statements already done (listed in `retriedStmtIds`, `retriedStmtId`
 * for findAndModify) and runs only the others, so nothing is written twice; an older txnNumber
 * answers 225 TransactionTooOld. Statement ids are `stmtIds[i]`, else `stmtId + i`, else `i`.
 *
 * `checkTransactionArguments` is the gate of `txnNumber`, `autocommit` and `startTransaction`
 * for every command (20 on a standalone, as mongod answers).
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { CLOSE_CONNECTION, failPointsOf } from '../../server/fail_points.js';
import { sessionCatalogOf, type SessionRecord } from '../../sessions/session_catalog.js';
import { isNumber } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { typeMismatch } from '../args.js';
import type { CommandContext, CommandDefinition } from '../types.js';
import { checkTransactionStatement, type TransactionStatement } from './transaction_statement.js';

/** The statements array of each batched retryable write command. */
const STATEMENT_ARRAYS: Readonly<Record<string, string>> = { insert: 'documents', update: 'updates', delete: 'deletes', bulkWrite: 'ops' };
/** Write commands a txnNumber may accompany outside a transaction. */
const RETRYABLE_COMMANDS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'findAndModify', 'bulkWrite']);

/** A retryable write's session and txnNumber. */
export interface RetryableWrite {
  readonly session: SessionRecord;
  readonly txnNumber: bigint;
}

/**
 * Checks the transaction arguments of a command: a standalone refuses them all (20); the replica
 * set checks a transaction's statement (`autocommit`: transaction_statement.ts) and refuses a
 * txnNumber without an lsid (72) or on a command that is not a retryable write (50768), and
 * returns the retryable write or the transaction's statement.
 */
export function checkTransactionArguments(ctx: CommandContext, def: CommandDefinition, body: Document): RetryableWrite | TransactionStatement | undefined {
  if (body.txnNumber === undefined && body.startTransaction === undefined && body.autocommit === undefined) return undefined;
  if (ctx.server.settings.replSetName === null) {
    throw new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
  }
  const txnNumber = parseTxnNumber(body.txnNumber);
  if (body.autocommit !== undefined && body.autocommit !== null) {
    const session = txnNumber === undefined ? undefined : sessionCatalogOf(ctx.server).touch(body.lsid, ctx.now());
    return checkTransactionStatement(ctx, def, body, session, txnNumber);
  }
  if (body.startTransaction !== undefined && body.startTransaction !== null) {
    throw new CommandError('InvalidOptions', "'startTransaction' field requires 'autocommit' field to also be specified");
  }
  if (txnNumber === undefined) return undefined;
  if (txnNumber < 0n) throw new CommandError('InvalidOptions', 'Transaction number cannot be negative');
  const session = sessionCatalogOf(ctx.server).touch(body.lsid, ctx.now());
  if (!session) throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
  if (!RETRYABLE_COMMANDS.has(def.name)) {
    throw new CommandError(
      50768,
      `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${def.name} is not a retryable write command.`,
    );
  }
  return { session, txnNumber };
}

/** True for a statement of a transaction (not a retryable write). */
export function isTransactionStatement(args: RetryableWrite | TransactionStatement): args is TransactionStatement {
  return 'start' in args;
}

function parseTxnNumber(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  // mongod's IDL type is a long: an int or a double is the wrong type.
  if (value instanceof Long) return value.toBigInt();
  throw typeMismatch('OperationSessionInfo.txnNumber', value, ['long']);
}

/** The session's UUID as mongod prints a LogicalSessionId (`<uuid> - <uid>`). */
function sessionName(session: SessionRecord): string {
  const hex = session.id.toString('hex');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return `${uuid} - ${session.uid.toString('hex').toUpperCase()}`;
}

/** Moves the session to `txnNumber` (a newer one forgets the older statements), or throws 225. */
function beginOrContinue(write: RetryableWrite): void {
  const { session, txnNumber } = write;
  if (session.txnNumber === undefined || txnNumber > session.txnNumber) {
    session.txnNumber = txnNumber;
    session.statements.clear();
    return;
  }
  if (txnNumber < session.txnNumber) {
    throw new CommandError(
      'TransactionTooOld',
      `Retryable write with txnNumber ${txnNumber} is prohibited on session ${sessionName(session)} because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
    );
  }
}

/** The statement ids of `count` statements (stmtIds, else stmtId + i, else i). */
function statementIds(body: Document, count: number): number[] {
  const given = body.stmtIds;
  if (Array.isArray(given)) return Array.from({ length: count }, (_, i) => Number(given[i] ?? i));
  const base = body.stmtId === undefined || body.stmtId === null ? 0 : Number(body.stmtId);
  return Array.from({ length: count }, (_, i) => base + i);
}

/** What the `onPrimaryTransactionalWrite` fail point asks of one statement. */
interface StatementFault {
  /** Fail the statement before it commits with this code. */
  readonly failCode: number | undefined;
  /** Drop the connection once the statement is done. */
  readonly closeConnection: boolean;
}

/** Checks `onPrimaryTransactionalWrite` for one statement (undefined: it does not fire). */
function statementFault(ctx: CommandContext): StatementFault | undefined {
  const failPoint = failPointsOf(ctx.server).onPrimaryTransactionalWrite;
  if (!failPoint.active) return undefined;
  const data = failPoint.check(() => true);
  if (data === undefined) return undefined;
  const code = data.failBeforeCommitExceptionCode;
  return { failCode: isNumber(code) ? Number(code) : undefined, closeConnection: data.closeConnection !== false };
}

const FAIL_BEFORE_COMMIT = 'Failing write for test before commit';

/**
 * Runs a retryable write command: the statements not done yet, merged with the recorded ones.
 * CLOSE_CONNECTION: the `onPrimaryTransactionalWrite` fail point dropped the connection.
 */
export async function runRetryableWrite(
  ctx: CommandContext,
  def: CommandDefinition,
  body: Document,
  write: RetryableWrite,
): Promise<Document | typeof CLOSE_CONNECTION> {
  beginOrContinue(write);
  const statements = write.session.statements;
  const field = STATEMENT_ARRAYS[def.name];
  if (field === undefined) {
    // findAndModify: one statement.
    const [stmtId] = statementIds(body, 1) as [number];
    const done = statements.get(stmtId) as Document | undefined;
    if (done !== undefined) return { ...done, retriedStmtId: stmtId };
    const fault = statementFault(ctx);
    if (fault?.failCode !== undefined) {
      if (fault.closeConnection) return CLOSE_CONNECTION;
      throw new CommandError(fault.failCode, FAIL_BEFORE_COMMIT);
    }
    const reply = await def.run(ctx, body);
    statements.set(stmtId, { ...reply });
    return fault?.closeConnection ? CLOSE_CONNECTION : reply;
  }
  const items = body[field];
  if (!Array.isArray(items)) return def.run(ctx, body);
  const ids = statementIds(body, items.length);
  const ordered = body.ordered !== false;
  const merged = new ReplyMerger(def.name);
  const retried: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const stmtId = ids[i]!;
    let reply = statements.get(stmtId) as Document | undefined;
    if (reply !== undefined) retried.push(stmtId);
    else {
      const fault = statementFault(ctx);
      if (fault?.failCode !== undefined) {
        if (fault.closeConnection) return CLOSE_CONNECTION;
        reply = { n: 0, writeErrors: [new CommandError(fault.failCode, FAIL_BEFORE_COMMIT).toWriteError(0)] };
      } else {
        reply = { ...(await def.run(ctx, oneStatement(body, field, items[i]))) };
        if (!hasWriteErrors(reply)) statements.set(stmtId, reply);
        if (fault?.closeConnection) return CLOSE_CONNECTION;
      }
    }
    merged.add(reply, i);
    if (ordered && hasWriteErrors(reply)) break;
  }
  const out = merged.reply();
  if (retried.length > 0) out.retriedStmtIds = retried;
  return out;
}

/** `body` with only `item` in its statements array (and no statement ids). */
function oneStatement(body: Document, field: string, item: unknown): Document {
  const out: Document = {};
  for (const key of Object.keys(body)) {
    if (key === 'stmtIds' || key === 'stmtId') continue;
    out[key] = key === field ? [item] : body[key];
  }
  return out;
}

function hasWriteErrors(reply: Document): boolean {
  if (Array.isArray(reply.writeErrors) && reply.writeErrors.length > 0) return true;
  return typeof reply.nErrors === 'number' && reply.nErrors > 0;
}

/** Sums single-statement replies into the batch's reply, re-indexing per-statement entries. */
class ReplyMerger {
  private readonly out: Document = {};
  private readonly counts = new Map<string, number>();
  private upserted: Document[] | undefined;
  private writeErrors: Document[] | undefined;
  private batch: Document[] | undefined;
  private cursorNs: unknown;

  constructor(private readonly command: string) {}

  add(reply: Document, index: number): void {
    for (const [key, value] of Object.entries(reply)) {
      if (key === 'upserted' && Array.isArray(value)) (this.upserted ??= []).push(...value.map((u: Document) => ({ ...u, index })));
      else if (key === 'writeErrors' && Array.isArray(value)) (this.writeErrors ??= []).push(...value.map((e: Document) => ({ ...e, index })));
      else if (key === 'cursor' && isDocument(value)) {
        this.cursorNs = value.ns;
        const first = Array.isArray(value.firstBatch) ? value.firstBatch : [];
        (this.batch ??= []).push(...first.map((r: Document) => ({ ...r, idx: index })));
      } else if (typeof value === 'number' && key !== 'ok') this.counts.set(key, (this.counts.get(key) ?? 0) + value);
      else if (key === 'writeConcernError' || !(key in this.out)) this.out[key] = value;
    }
  }

  reply(): Document {
    const out = this.out;
    for (const [key, n] of this.counts) out[key] = n;
    if (this.command !== 'bulkWrite' && out.n === undefined) out.n = 0;
    if (this.batch !== undefined) out.cursor = { id: Long.ZERO, firstBatch: this.batch, ns: this.cursorNs };
    if (this.upserted !== undefined) out.upserted = this.upserted;
    if (this.writeErrors !== undefined) out.writeErrors = this.writeErrors;
    return out;
  }
}
