/** `connectionStatus`: who is authenticated on this connection (no one: Mayfly has no auth). */
import type { Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';

/** The `connectionStatus` command. */
export const connectionStatus: CommandDefinition = {
  name: 'connectionStatus',
  args: { showPrivileges: { type: 'bool' } },
  help: 'Returns connection-specific information such as logged-in users and their roles',
  run(_ctx, cmd) {
    const authInfo: Document = { authenticatedUsers: [], authenticatedUserRoles: [] };
    if (cmd.showPrivileges === true) authInfo.authenticatedUserPrivileges = [];
    return { authInfo };
  },
};
