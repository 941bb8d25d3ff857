/** `connectionStatus`: who is authenticated on this connection, their roles (and privileges). */
import type { CommandDefinition } from '../types.js';

/** The `connectionStatus` command. */
export const connectionStatus: CommandDefinition = {
  name: 'connectionStatus',
  args: { showPrivileges: { type: 'bool' } },
  help: 'Returns connection-specific information such as logged-in users and their roles',
  run(ctx, cmd) {
    return { authInfo: ctx.connection.auth.authInfo(cmd.showPrivileges === true) };
  },
};
