/**
 * `authenticate`: the one-step authentication command, which mongod 8 keeps for MONGODB-X509
 * only (`{ authenticate: 1, mechanism: 'MONGODB-X509', user?: <subject> }` on `$external`), and
 * its speculative form in `hello` (`speculativeAuthenticate: { authenticate: 1, mechanism, db }`).
 * As mongod's `CmdAuthenticate`, every failure but 11 UserNotFound and 17 ProtocolError reaches
 * the client as 18 "Authentication failed.", its reason only in the log.
 */
import type { Document } from '../../bson/library.js';
import { authenticateExternal } from '../../auth/authorization_session.js';
import { authenticateX509, EXTERNAL_DB, X509_MECHANISM, X509Refusal } from '../../auth/x509.js';
import { CommandError } from '../../errors/command_error.js';
import { ErrorCodes } from '../../errors/codes.js';
import type { CommandContext, CommandDefinition } from '../types.js';

/** The message of every authentication failure whose reason the client is not told. */
export const AUTHENTICATION_FAILED_MESSAGE = 'Authentication failed.';

/** The codes `authenticate` passes on as they are; the rest become 18. */
const PASSED_ON: ReadonlySet<number> = new Set([ErrorCodes.UserNotFound, ErrorCodes.ProtocolError]);

/**
 * Runs one authentication of `user` (absent: the certificate subject) by `mechanism` on `db`;
 * returns mongod's reply fields `{ user, dbname }`. `speculative` only changes the log line.
 */
export function runAuthenticate(ctx: CommandContext, mechanism: string, user: string | undefined, db: string, speculative: boolean): Document {
  const conn = ctx.connection;
  const log = { connectionId: conn.id, remote: conn.remoteAddress, mechanism, speculative, authenticationDatabase: db };
  try {
    if (mechanism === '') throw new X509Refusal('Auth mechanism not specified');
    if (mechanism !== X509_MECHANISM) throw new X509Refusal(`Unsupported mechanism: ${mechanism}`);
    const name = authenticateX509(conn.tlsPeerSubject, user, db, (userName) => authenticateExternal(conn, userName));
    ctx.server.logger.info({ ...log, principalName: name }, 'Successfully authenticated');
    return { user: name, dbname: db };
  } catch (err) {
    const reason = err instanceof CommandError ? `${err.codeName}: ${err.message}` : err instanceof Error ? `AuthenticationFailed: ${err.message}` : String(err);
    ctx.server.logger.info({ ...log, principalName: user ?? conn.tlsPeerSubject ?? '', error: reason }, 'Authentication failed');
    if (err instanceof CommandError && PASSED_ON.has(err.code)) throw err;
    throw new CommandError('AuthenticationFailed', AUTHENTICATION_FAILED_MESSAGE);
  }
}

/**
 * `hello`'s `speculativeAuthenticate` when it holds an `authenticate` command: its reply
 * `{ user, dbname }`, or undefined when it fails or is malformed (mongod then answers hello
 * without the field and the client authenticates as usual).
 */
export function speculativeAuthenticate(ctx: CommandContext, doc: Document): Document | undefined {
  if (!('authenticate' in doc)) return undefined;
  const { mechanism, user, db } = doc;
  for (const key of Object.keys(doc)) if (!['authenticate', 'mechanism', 'user', 'db'].includes(key)) return undefined;
  if (typeof mechanism !== 'string' || (user !== undefined && typeof user !== 'string') || (db !== undefined && typeof db !== 'string')) return undefined;
  try {
    return runAuthenticate(ctx, mechanism, user, db ?? EXTERNAL_DB, true);
  } catch {
    return undefined;
  }
}

/** The `authenticate` command. */
export const authenticate: CommandDefinition = {
  name: 'authenticate',
  args: {
    mechanism: { type: 'string', required: true },
    user: { type: 'string' },
  },
  help: 'internal',
  run: (ctx, cmd) => runAuthenticate(ctx, cmd.mechanism as string, cmd.user as string | undefined, ctx.db, false),
};
