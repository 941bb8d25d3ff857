/**
 * Runs one command document: finds its definition, checks `$db` and the arguments, runs it and
 * funnels every outcome into a reply (`ok: 1` added here; errors become mongod-shaped replies).
 * A command with an express path (`CommandDefinition.express`: find's and update's point
 * requests, src/commands/crud/express.ts) is offered to it first, before the argument checks;
 * what it declines runs the usual way.
 * The `failCommand` fail point (src/server/fail_points.ts) is checked once the arguments are
 * valid: it may delay the command, fail it, drop the connection, or add a writeConcernError.
 * In Cosmos DB mode every command runs under the request-units meter (`runMetered`).
 */
import { authorizeCommand } from '../auth/enforcement.js';
import { Double, Long, type Document } from '../bson/library.js';
import { CommandError, toCommandError } from '../errors/command_error.js';
import { CLOSE_CONNECTION, evaluateFailCommand, failCommandActive } from '../server/fail_points.js';
import { validateDbName } from '../storage/values/namespace.js';
import { assign } from '../storage/values/paths.js';
import { validateArguments } from './args.js';
import { requestUnitsOf, type RequestUnits } from '../cosmos/request_units/meter.js';
import { registry } from './registry.js';
import { recordTop, topStart } from './diagnostic/_internal/top_counters.js';
import { sessionCatalogOf, type SessionRecord } from '../sessions/session_catalog.js';
import { addClusterTime, gossipClusterTimeIn } from './replication/cluster_time.js';
import { checkTransactionArguments, isTransactionStatement, runRetryableWrite, type RetryableWrite } from './sessions/retryable_write.js';
import { labelCommitReply, runTransactionStatement, withTransactionLabels, type TransactionStatement } from './sessions/transaction_statement.js';
import { existingSnapshots } from '../storage/write/snapshots.js';
import { isSnapshotRead, runSnapshotRead } from './sessions/snapshot_read.js';
import type { CommandContext, CommandDefinition } from './types.js';
import type { ConnectionState, ServerServices } from '../server/services.js';
import { cosmosCheckCommand } from '../cosmos/rules/unsupported_commands.js';
import { cosmosTypedReply } from '../cosmos/rules/reply_types.js';
import { cosmosWithoutWriteConcern } from '../cosmos/rules/write_concern.js';
import { noteRequestStart } from './crud/time_limit.js';
import { cosmosCheckOperators } from '../cosmos/operators.js';

const OK = new Double(1);
/** mongod's error replies carry `ok: 0.0` (a double). */
const NOT_OK = new Double(0);

/** What dispatch answers: a reply document, or CLOSE_CONNECTION (close without a reply). */
export type DispatchResult = Document | typeof CLOSE_CONNECTION;

/**
 * Runs `body` on `server` for `connection`; never throws (and never rejects). `CLOSE_CONNECTION`
 * means: close the connection without a reply (the failCommand fail point's `closeConnection`).
 * A command that completes synchronously (most do) is answered synchronously: no promise and
 * no microtask hop on the path of every request; the others return a promise.
 */
export function dispatch(
  server: ServerServices,
  connection: ConnectionState,
  body: Document,
  requestBytes = Number.POSITIVE_INFINITY,
): DispatchResult | Promise<DispatchResult> {
  const commandField = firstKey(body);
  try {
    const def = registry.get(commandField);
    if (!def) throw new CommandError('CommandNotFound', `no such command: '${commandField}'`);
    const cosmos = server.settings.cosmos;
    if (cosmos?.rules.unsupportedCommands) cosmosCheckCommand(def.name, cosmos.version);
    if (cosmos?.rules.ignoreWriteConcern) body = cosmosWithoutWriteConcern(body);
    gossipClusterTimeIn(server, body);
    const started = topStart();
    const meter = requestUnitsOf(server);
    const typed = cosmos?.rules.replyTypes ? def.name : null;
    let reply: DispatchResult | Promise<DispatchResult>;
    try {
      reply = meter === undefined ? runDefinition(server, connection, def, body, commandField, requestBytes) : runMetered(meter, server, connection, def, body, commandField, requestBytes);
    } catch (err) {
      noteTop(server, def.name, body, started);
      throw err;
    }
    if (reply instanceof Promise) {
      return reply.then(
        (r) => (noteTop(server, def.name, body, started), okReply(server, transactionReply(r, body, commandField), typed)),
        (err: unknown) => (noteTop(server, def.name, body, started), errorReply(server, transactionError(err, body, commandField), commandField)),
      );
    }
    noteTop(server, def.name, body, started);
    return okReply(server, transactionReply(reply, body, commandField), typed);
  } catch (err) {
    return errorReply(server, transactionError(err, body, commandField), commandField);
  }
}

/** Counts the command for `top` (diagnostic/_internal/top_counters.ts) on the namespace it named. */
function noteTop(server: ServerServices, name: string, body: Document, started: number): void {
  if (typeof body.$db === 'string') recordTop(server, name, body.$db, body, started);
}

/** A transaction statement's error with mongod's error labels (sessions/transaction_statement.ts). */
function transactionError(err: unknown, body: Document, commandField: string): unknown {
  return body.autocommit === undefined ? err : withTransactionLabels(err, body, commandField);
}

/** A commit's or abort's reply with the labels of its write concern error. */
function transactionReply(reply: DispatchResult, body: Document, commandField: string): DispatchResult {
  if (reply !== CLOSE_CONNECTION && body.autocommit !== undefined && reply.writeConcernError !== undefined) labelCommitReply(reply, commandField);
  return reply;
}

/** `reply` with `ok: 1` (and, for `typed`, the command's Cosmos DB `_t` first). */
function okReply(server: ServerServices, reply: DispatchResult, typed: string | null = null): DispatchResult {
  if (reply !== CLOSE_CONNECTION) {
    if (typed !== null) reply = cosmosTypedReply(typed, reply);
    reply.ok = OK;
    addClusterTime(server, reply);
  }
  return reply;
}

function errorReply(server: ServerServices, err: unknown, commandField: string): Document {
  const error = toCommandError(err);
  if (error.code === 1) server.logger.error({ err, command: commandField }, 'command failed with an internal error');
  else server.logger.debug({ command: commandField, code: error.code, errmsg: error.message }, 'command error');
  return addClusterTime(server, { ...error.toReply(), ok: NOT_OK });
}

/**
 * Cosmos DB mode's hook (src/cosmos/request_units/meter.ts): the request runs under the request
 * units meter, which may throttle it (16500, or a wait with server-side retry), run fewer of its
 * statements, and charges what it did once it ran.
 */
function runMetered(
  meter: RequestUnits,
  server: ServerServices,
  connection: ConnectionState,
  def: CommandDefinition,
  body: Document,
  commandField: string,
  requestBytes: number,
): DispatchResult | Promise<DispatchResult> {
  const db = typeof body.$db === 'string' ? body.$db : '';
  return meter.meterRequest(connection, def.name, db, body, (metered) => runDefinition(server, connection, def, metered, commandField, requestBytes)) as
    | DispatchResult
    | Promise<DispatchResult>;
}

/** Checks the request, then runs the command (synchronously unless it or the fail point waits). */
function runDefinition(
  server: ServerServices,
  connection: ConnectionState,
  def: CommandDefinition,
  body: Document,
  commandField: string,
  requestBytes: number,
): DispatchResult | Promise<DispatchResult> {
  const busy = transactionGate(server, body);
  if (busy !== null) return busy.then(() => runDefinition(server, connection, def, body, commandField, requestBytes));
  const db = body.$db;
  if (typeof db !== 'string') throw new CommandError(40571, 'OP_MSG requests require a $db argument');
  // `$external`, where X509 (and LDAP) users live, is the one database name with a `$` a command may name.
  if (db !== '$external') validateDbName(db);
  // A transaction's statement is checked as one first (getParameter in a transaction: 263).
  if (def.adminOnly && db !== 'admin' && body.autocommit === undefined) {
    throw new CommandError('Unauthorized', `${def.name} may only be run against the admin database.`);
  }
  checkApiParameters(def, body);
  checkAccess(connection, def, body, db);
  const ctx: CommandContext = { server, connection, db, now: () => server.clock.now(), requestBytes, commands: registry };
  if (server.settings.cosmos?.rules.requestTimeLimit) noteRequestStart(server, server.clock.now());
  const retryable = checkTransactionArguments(ctx, def, body);
  if (def.adminOnly && db !== 'admin') {
    throw new CommandError('Unauthorized', `${def.name} may only be run against the admin database.`);
  }
  // Most commands run with the fail point off: no await, no per-command scope then.
  const failPoint = failCommandActive(server);
  if (def.express !== undefined && !failPoint && retryable === undefined) {
    const reply = def.express(ctx, body);
    if (reply !== undefined) {
      finishCommand(ctx, startCommand(ctx, body), reply);
      return reply;
    }
  }
  validateArguments(def, body, commandField, server.settings.replSetName);
  if (server.settings.cosmos !== null) cosmosCheckOperators(def.name, body, server.settings.cosmos);
  if (failPoint) return runUnderFailCommand(ctx, def, body, commandField, retryable);
  const session = startCommand(ctx, body);
  const reply = runCommand(ctx, def, body, retryable);
  // A copy: handlers may return shared documents, and dispatch adds `ok`.
  return reply instanceof Promise
    ? reply.then((r) => (r === CLOSE_CONNECTION ? r : finishCommand(ctx, session, copyReply(r))))
    : finishCommand(ctx, session, copyReply(reply));
}

/** The commands of the Stable API, version 1 (mongod's `apiVersions: [ "1" ]`). */
const API_VERSION_1: ReadonlySet<string> = new Set([
  'abortTransaction', 'aggregate', 'authenticate', 'collMod', 'commitTransaction', 'count', 'create', 'createIndexes', 'delete', 'distinct',
  'drop', 'dropDatabase', 'dropIndexes', 'endSessions', 'explain', 'find', 'findAndModify', 'getMore', 'hello', 'insert', 'killCursors',
  'listCollections', 'listDatabases', 'listIndexes', 'ping', 'refreshSessions', 'saslContinue', 'saslStart', 'update',
]);

/**
 * The Stable API parameters (api_parameters.cpp): `apiVersion` must be "1"; `apiStrict` and
 * `apiDeprecationErrors` need an `apiVersion` (4886600); `apiStrict: true` refuses a command
 * outside version 1 (323).
 */
function checkApiParameters(def: CommandDefinition, body: Document): void {
  if (body.apiVersion !== undefined && body.apiVersion !== '1') {
    throw new CommandError('APIVersionError', `API version must be "1"`);
  }
  if (body.apiVersion === undefined) {
    if (body.apiStrict !== undefined) throw new CommandError(4886600, 'Provided apiStrict without a specified API version');
    if (body.apiDeprecationErrors !== undefined) throw new CommandError(4886600, 'Provided apiDeprecationErrors without a specified API version');
    return;
  }
  if (body.apiStrict === true && !API_VERSION_1.has(def.name)) {
    throw new CommandError('APIStrictError', `Provided apiStrict:true, but the command ${def.name} is not in API Version 1`);
  }
}

/**
 * Runs the command's handler, or the retryable-write wrapper around it (sessions/retryable_write.ts),
 * whose `onPrimaryTransactionalWrite` fail point may drop the connection (CLOSE_CONNECTION).
 */
function runCommand(
  ctx: CommandContext,
  def: CommandDefinition,
  body: Document,
  retryable: RetryableWrite | TransactionStatement | undefined,
): Document | Promise<Document | typeof CLOSE_CONNECTION> {
  if (retryable === undefined || !isTransactionStatement(retryable)) {
    // A snapshot read outside a transaction (sessions/snapshot_read.ts); writes refuse it there.
    if (body.readConcern !== undefined && isSnapshotRead(body)) return runSnapshotRead(ctx, def, body);
    if (retryable === undefined) return def.run(ctx, body);
  }
  return isTransactionStatement(retryable) ? runTransactionStatement(ctx, def, body, retryable) : runRetryableWrite(ctx, def, body, retryable);
}

/**
 * The transaction gate: while a statement of a transaction (or a snapshot read) runs with its
 * snapshot applied to the collections, other commands wait (storage/write/snapshots.ts); with
 * no snapshot open this is one lookup. Expired transactions are aborted first.
 */
function transactionGate(server: ServerServices, body: Document): Promise<void> | null {
  const store = existingSnapshots(server.catalog.writes);
  if (store === undefined || store.openViews === 0) return null;
  const busy = store.busy;
  if (busy !== null) return busy;
  const sessions = sessionCatalogOf(server);
  if (sessions.transactionsOpen) sessions.expireTransactions(server.clock.now());
  // A transaction's view left applied after its statement is put back before anyone else's
  // command (a statement of a transaction switches views itself).
  if (body.autocommit === undefined) store.settle();
  return null;
}

/**
 * A shallow copy of a handler's reply. A loop, not `{ ...reply }`: replies of every command pass
 * here, and a spread of that many shapes takes V8's slow generic path.
 */
function copyReply(reply: Document): Document {
  const out: Document = {};
  for (const key in reply) assign(out, key, reply[key]);
  return out;
}

/** `runDefinition` while failCommand is configured: it may delay, fail or drop the command. */
async function runUnderFailCommand(
  ctx: CommandContext,
  def: CommandDefinition,
  body: Document,
  commandField: string,
  retryable: RetryableWrite | TransactionStatement | undefined,
): Promise<DispatchResult> {
  const failCommand = await evaluateFailCommand(ctx.server, { command: def.name, aliases: def.aliases ?? [], body, db: ctx.db, connection: ctx.connection });
  if (failCommand.closeConnection) return CLOSE_CONNECTION;
  const session = startCommand(ctx, body);
  try {
    const reply = await runCommand(ctx, def, body, retryable);
    if (reply === CLOSE_CONNECTION) return reply;
    return failCommand.onReply(finishCommand(ctx, session, { ...reply }));
  } catch (err) {
    throw err instanceof CommandError ? failCommand.onError(err) : err;
  }
}

/**
 * Access control (src/auth/enforcement.ts): with `--auth`, 13 Unauthorized unless the
 * connection's user holds the privileges the action table names for this command.
 */
function checkAccess(connection: ConnectionState, def: CommandDefinition, body: Document, db: string): void {
  if (connection.auth.manager.enabled) authorizeCommand(connection.auth, connection.remoteAddress, def.name, db, body);
}

/** The session catalog: a command's lsid marks its session used; returns the session. */
function startCommand(ctx: CommandContext, body: Document): SessionRecord | undefined {
  return body.lsid === undefined ? undefined : sessionCatalogOf(ctx.server).touch(body.lsid, ctx.now());
}

/** After a command ran: a cursor it left open belongs to its session (killSessions closes it). */
function finishCommand(ctx: CommandContext, session: SessionRecord | undefined, reply: Document): Document {
  if (session !== undefined) {
    const cursor = reply.cursor as Document | undefined;
    const id = cursor?.id;
    if (id instanceof Long && !id.isZero()) {
      sessionCatalogOf(ctx.server).addCursor(session, id.toBigInt());
      // The cursor remembers its session: its getMores must come from the same one (get_more.ts).
      const open = ctx.server.cursors.peek(id);
      if (open !== undefined && open.session === null) open.session = { id: session.id, uid: session.uid };
    }
  }
  noteCursorOwner(ctx, reply);
  return reply;
}

/** A cursor a command opened belongs to the user the connection is authenticated as (getMore checks it). */
function noteCursorOwner(ctx: CommandContext, reply: Document): void {
  const user = ctx.connection.auth.user;
  if (user === null) return;
  const id = (reply.cursor as Document | undefined)?.id;
  if (!(id instanceof Long) || id.isZero()) return;
  const cursor = ctx.server.cursors.peek(id);
  if (cursor !== undefined) cursor.owner = `${user.user}@${user.db}`;
}

/** The first field name of `doc` ('' when empty), without listing every key. */
function firstKey(doc: Document): string {
  for (const key in doc) return key;
  return '';
}
