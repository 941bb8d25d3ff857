/** `dropAllRolesFromDatabase`: removes every custom role of the command's database; `n` says how many. */
import { dropRoleReferences } from '../../auth/management.js';
import type { CommandDefinition } from '../types.js';

/** The `dropAllRolesFromDatabase` command. */
export const dropAllRolesFromDatabase: CommandDefinition = {
  name: 'dropAllRolesFromDatabase',
  args: {},
  help: 'Drops all roles from the given database.',
  run(ctx) {
    const manager = ctx.server.auth;
    const names = manager.allRoles().filter((d) => d.db === ctx.db).map((d) => ({ role: String(d.role), db: String(d.db) }));
    const n = manager.removeRoles((doc) => doc.db === ctx.db);
    dropRoleReferences(manager, names);
    return { n };
  },
};
