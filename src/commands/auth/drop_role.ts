/** `dropRole`: removes a custom role, and takes it from every user and role that held it. */
import { roleNotFound } from '../../auth/auth_manager.js';
import { checkCustomRoleName } from '../../auth/management.js';
import { dropRoleReferences } from '../../auth/management.js';
import type { CommandDefinition } from '../types.js';

/** The `dropRole` command. */
export const dropRole: CommandDefinition = {
  name: 'dropRole',
  target: { type: 'string' },
  args: {},
  help: 'Drops a single role.',
  run(ctx, cmd) {
    const name = { role: cmd.dropRole as string, db: ctx.db };
    checkCustomRoleName(name, 'drop');
    const manager = ctx.server.auth;
    const n = manager.removeRoles((doc) => doc.role === name.role && doc.db === name.db);
    if (n === 0) throw roleNotFound(name);
    dropRoleReferences(manager, [name]);
    return {};
  },
};
