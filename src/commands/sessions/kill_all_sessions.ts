/**
 * `killAllSessions`: kills every session of the listed users (`[]`: of every user): their open
 * cursors are closed. Without authentication every session belongs to the user `""` of `""`.
 */
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import type { CommandDefinition } from '../types.js';
import { killSessionCursors } from './kill_cursors_of.js';
import { checkDefaultReadConcernOnly, matchesNoAuthUser, parseUserList } from './session_args.js';

/** The `killAllSessions` command. */
export const killAllSessions: CommandDefinition = {
  name: 'killAllSessions',
  idlName: 'KillAllSessionsCmd',
  target: { type: 'any', parse: (value, field, idl) => void parseUserList(value, `${idl}.${field}`) },
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'kill all logical sessions, for a user, and their operations',
  run(ctx, cmd) {
    checkDefaultReadConcernOnly(ctx, cmd, 'killAllSessions');
    const users = parseUserList(cmd.killAllSessions, 'KillAllSessionsCmd.killAllSessions');
    if (users.length === 0 || matchesNoAuthUser(users)) killSessionCursors(ctx, sessionCatalogOf(ctx.server).kill(undefined));
    return {};
  },
};
