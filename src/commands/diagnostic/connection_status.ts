/**
 * `connectionStatus`: who is authenticated on this connection, their roles (and privileges, given
 * a truthy `showPrivileges`), and the connection's client `uuid`, as mongod 8 answers.
 */
import { boolArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `connectionStatus` command. */
export const connectionStatus: CommandDefinition = {
  name: 'connectionStatus',
  args: { showPrivileges: { type: 'bool' } },
  help: 'Returns connection-specific information such as logged-in users and their roles',
  run(ctx, cmd) {
    const auth = ctx.connection.auth;
    return { authInfo: auth.authInfo(boolArg(cmd, 'showPrivileges', false)), uuid: auth.clientUuid };
  },
};
