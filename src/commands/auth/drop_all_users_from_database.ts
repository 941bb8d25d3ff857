/** `dropAllUsersFromDatabase`: removes every user of the command's database; `n` says how many. */
import type { CommandDefinition } from '../types.js';

/** The `dropAllUsersFromDatabase` command. */
export const dropAllUsersFromDatabase: CommandDefinition = {
  name: 'dropAllUsersFromDatabase',
  args: {},
  help: 'Drops all users for a single database.',
  run(ctx) {
    const n = ctx.server.auth.removeUsers((doc) => doc.db === ctx.db);
    return { n };
  },
};
