/** `endSessions`: drivers end their logical sessions: forgotten, their cursors closed. */
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import type { CommandDefinition } from '../types.js';
import { killSessionCursors } from './kill_cursors_of.js';
import { parseSessionList } from './session_args.js';

/** The `endSessions` command. */
export const endSessions: CommandDefinition = {
  name: 'endSessions',
  idlName: 'EndSessionsCmdFromClient',
  target: { type: 'any', parse: (value, field, idl) => void parseSessionList(value, idl, field) },
  args: {},
  help: 'end a set of logical sessions',
  run(ctx, cmd) {
    const ids = parseSessionList(cmd.endSessions, 'EndSessionsCmdFromClient', 'endSessions');
    killSessionCursors(ctx, sessionCatalogOf(ctx.server).end(ids));
    return {};
  },
};
