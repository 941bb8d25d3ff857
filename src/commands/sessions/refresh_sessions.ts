/** `refreshSessions`: keeps the listed sessions alive (their last use becomes now). */
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import type { CommandDefinition } from '../types.js';
import { parseSessionList } from './session_args.js';

/** The `refreshSessions` command. */
export const refreshSessions: CommandDefinition = {
  name: 'refreshSessions',
  idlName: 'RefreshSessionsCmdFromClient',
  target: { type: 'any', parse: (value, field, idl) => void parseSessionList(value, idl, field) },
  args: {},
  help: 'renew a set of logical sessions',
  run(ctx, cmd) {
    const catalog = sessionCatalogOf(ctx.server);
    const nowMs = ctx.now();
    for (const id of parseSessionList(cmd.refreshSessions, 'RefreshSessionsCmdFromClient', 'refreshSessions')) catalog.touch({ id }, nowMs);
    return {};
  },
};
