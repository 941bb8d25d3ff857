/** `logout`: forgets the user authenticated on this database (deprecated in mongod, still answered). */
import type { CommandDefinition } from '../types.js';

/** The `logout` command. */
export const logout: CommandDefinition = {
  name: 'logout',
  args: {},
  help: 'de-authenticate',
  run(ctx) {
    ctx.connection.auth.logoutDatabase(ctx.db);
    return {};
  },
};
