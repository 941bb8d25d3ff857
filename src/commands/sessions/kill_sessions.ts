/**
 * `killSessions`: kills the listed sessions of this server: their open cursors are closed (a
 * later getMore answers 43 CursorNotFound). Unknown sessions are no error.
 */
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import type { CommandDefinition } from '../types.js';
import { killSessionCursors } from './kill_cursors_of.js';
import { checkDefaultReadConcernOnly, parseSessionList } from './session_args.js';

/** The `killSessions` command. */
export const killSessions: CommandDefinition = {
  name: 'killSessions',
  idlName: 'KillSessionsCmdFromClient',
  target: { type: 'any', parse: (value, field, idl) => void parseSessionList(value, idl, field) },
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'kill a logical session and its operations',
  run(ctx, cmd) {
    checkDefaultReadConcernOnly(ctx, cmd, 'killSessions');
    const ids = parseSessionList(cmd.killSessions, 'KillSessionsCmdFromClient', 'killSessions');
    killSessionCursors(ctx, sessionCatalogOf(ctx.server).kill(ids));
    return {};
  },
};
