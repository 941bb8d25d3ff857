/**
 * STAND-IN until the authentication branch lands (issue 24): its `src/auth/` provides the real
 * `authenticateExternal(connection, userName)`, which looks the user up in `$external` (11
 * UserNotFound when absent) and marks the connection authenticated with the user's roles. This
 * stand-in has no user store: it accepts every `$external` name and only remembers it for the
 * connection. At merge, `src/commands/auth/authenticate.ts` imports the real one instead and this
 * file is deleted.
 */
import type { ConnectionState } from '../server/services.js';

const authenticated = new WeakMap<ConnectionState, Set<string>>();

/** Marks `userName` of `$external` authenticated on `connection` (stand-in: every name exists). */
export function authenticateExternal(connection: ConnectionState, userName: string): void {
  let users = authenticated.get(connection);
  if (users === undefined) authenticated.set(connection, (users = new Set()));
  users.add(userName);
}

/** The `$external` users authenticated on `connection` (stand-in). */
export function externalUsersOf(connection: ConnectionState): readonly string[] {
  return [...(authenticated.get(connection) ?? [])];
}
