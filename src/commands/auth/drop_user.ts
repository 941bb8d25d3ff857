/** `dropUser`: removes a user of the command's database. */
import { userNotFound } from '../../auth/auth_manager.js';
import type { CommandDefinition } from '../types.js';

/** The `dropUser` command. */
export const dropUser: CommandDefinition = {
  name: 'dropUser',
  target: { type: 'string' },
  args: {},
  help: 'Drops a single user.',
  run(ctx, cmd) {
    const name = { user: cmd.dropUser as string, db: ctx.db };
    const n = ctx.server.auth.removeUsers((doc) => doc.user === name.user && doc.db === name.db);
    if (n === 0) throw userNotFound(name);
    return {};
  },
};
