/**
 * Runs one command document: finds its definition, checks `$db` and the arguments, runs it and
 * funnels every outcome into a reply (`ok: 1` added here; errors become mongod-shaped replies).
 * A command with an express path (`CommandDefinition.express`: find's and update's point
 * requests, src/commands/crud/express.ts) is offered to it first, before the argument checks;
 * what it declines runs the usual way.
 * The `failCommand` fail point (src/server/fail_points.ts) is checked once the arguments are
 * valid: it may delay the command, fail it, drop the connection, or add a writeConcernError.
 */
import { Double, type Document } from '../bson/library.js';
import { CommandError, toCommandError } from '../errors/command_error.js';
import { CLOSE_CONNECTION, evaluateFailCommand, failCommandActive } from '../server/fail_points.js';
import { validateDbName } from '../storage/values/namespace.js';
import { assign } from '../storage/values/paths.js';
import { validateArguments } from './args.js';
import { registry } from './registry.js';
import { endLocalSessions, touchSession } from './crud/local_sessions.js';
import type { CommandContext, CommandDefinition } from './types.js';
import type { ConnectionState, ServerServices } from '../server/services.js';

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
    const reply = runDefinition(server, connection, def, body, commandField, requestBytes);
    if (reply instanceof Promise) return reply.then(okReply, (err: unknown) => errorReply(server, err, commandField));
    return okReply(reply);
  } catch (err) {
    return errorReply(server, err, commandField);
  }
}

function okReply(reply: DispatchResult): DispatchResult {
  if (reply !== CLOSE_CONNECTION) reply.ok = OK;
  return reply;
}

function errorReply(server: ServerServices, err: unknown, commandField: string): Document {
  const error = toCommandError(err);
  if (error.code === 1) server.logger.error({ err, command: commandField }, 'command failed with an internal error');
  else server.logger.debug({ command: commandField, code: error.code, errmsg: error.message }, 'command error');
  return { ...error.toReply(), ok: NOT_OK };
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
  const db = body.$db;
  if (typeof db !== 'string') throw new CommandError(40571, 'OP_MSG requests require a $db argument');
  validateDbName(db);
  if (def.adminOnly && db !== 'admin') {
    throw new CommandError('Unauthorized', `${def.name} may only be run against the admin database.`);
  }
  if (body.txnNumber !== undefined || body.startTransaction !== undefined || body.autocommit !== undefined) {
    throw new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
  }
  if (body.apiVersion !== undefined && body.apiVersion !== '1') {
    throw new CommandError('APIVersionError', `API version must be "1"`);
  }
  const ctx: CommandContext = { server, connection, db, now: () => server.clock.now(), requestBytes, commands: registry };
  // Most commands run with the fail point off: no await, no per-command scope then.
  const failPoint = failCommandActive(server);
  if (def.express !== undefined && !failPoint) {
    const reply = def.express(ctx, body);
    if (reply !== undefined) {
      startCommand(ctx, def, body, commandField);
      return reply;
    }
  }
  validateArguments(def, body, commandField, server.settings.replSetName);
  if (failPoint) return runUnderFailCommand(ctx, def, body, commandField);
  startCommand(ctx, def, body, commandField);
  const reply = def.run(ctx, body);
  // A copy: handlers may return shared documents, and dispatch adds `ok`.
  return reply instanceof Promise ? reply.then(copyReply) : copyReply(reply);
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
async function runUnderFailCommand(ctx: CommandContext, def: CommandDefinition, body: Document, commandField: string): Promise<DispatchResult> {
  const failCommand = await evaluateFailCommand(ctx.server, { command: def.name, aliases: def.aliases ?? [], body, db: ctx.db, connection: ctx.connection });
  if (failCommand.closeConnection) return CLOSE_CONNECTION;
  startCommand(ctx, def, body, commandField);
  try {
    return failCommand.onReply({ ...(await def.run(ctx, body)) });
  } catch (err) {
    throw err instanceof CommandError ? failCommand.onError(err) : err;
  }
}

/** The logical session cache: a command's lsid marks its session used; endSessions ends them. */
function startCommand(ctx: CommandContext, def: CommandDefinition, body: Document, commandField: string): void {
  if (body.lsid !== undefined) touchSession(ctx.server, body.lsid, ctx.now());
  if (def.name === 'endSessions') endLocalSessions(ctx.server, body[commandField]);
}

/** The first field name of `doc` ('' when empty), without listing every key. */
function firstKey(doc: Document): string {
  for (const key in doc) return key;
  return '';
}
