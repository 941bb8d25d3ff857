/**
 * Access control on every command (with `--auth`): the command's entry in the action table
 * (actions.ts) against the connection's privileges, with mongod's two refusals:
 *   - 13 Unauthorized "Command <name> requires authentication" with no authenticated user;
 *   - 13 Unauthorized "not authorized on <db> to execute command { … }" for a user without the
 *     privileges (the command document printed as mongod prints BSON).
 * The localhost exception: while no user exists, a client on the loopback interface may run
 * `createUser` on admin (to create the first user), and nothing else that needs a user.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { formatValue } from '../storage/values/format.js';
import { COMMAND_PRIVILEGES, NO_AUTH } from './actions.js';
import type { AuthorizationSession } from './authorization_session.js';

/** Whether `remoteAddress` (`host:port`) is on the loopback interface. */
export function isLoopback(remoteAddress: string): boolean {
  const host = remoteAddress.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host.startsWith('127.') || host === '::1' || host.startsWith('::ffff:127.') || host === 'localhost';
}

/** Throws 13 unless `session` may run command `name` (canonical) on `db` with document `body`. */
export function authorizeCommand(session: AuthorizationSession, remoteAddress: string, name: string, db: string, body: Document): void {
  const manager = session.manager;
  if (!manager.enabled) return;
  const entry = COMMAND_PRIVILEGES[name];
  if (entry === NO_AUTH) return;
  if (session.user === null) {
    if (name === 'createUser' && db === 'admin' && !manager.hasUsers() && isLoopback(remoteAddress)) return;
    throw new CommandError('Unauthorized', `Command ${name} requires authentication`);
  }
  if (entry === undefined) return;
  const alternatives = entry(db, body, session);
  if (alternatives.length === 0) return;
  for (const requirement of alternatives) {
    if (requirement.every((n) => session.allows(n.resource, n.actions))) return;
  }
  throw new CommandError('Unauthorized', `not authorized on ${db} to execute command ${formatValue(body)}`);
}
