/** `grantRolesToRole`: a custom role inherits more roles (no cycles). */
import { roleNotFound } from '../../auth/auth_manager.js';
import { rolesOf } from '../../auth/credentials.js';
import { addRoles, checkCustomRoleName, checkNoCycle, parseRoleNames, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `grantRolesToRole` command. */
export const grantRolesToRole: CommandDefinition = {
  name: 'grantRolesToRole',
  target: { type: 'string' },
  args: { roles: { type: 'array', required: true } },
  help: 'Grants roles to another role.',
  run(ctx, cmd) {
    const name = { role: cmd.grantRolesToRole as string, db: ctx.db };
    checkCustomRoleName(name, 'grant roles to');
    const roles = parseRoleNames(cmd, 'roles', 'grantRolesToRole', ctx.db);
    if (roles.length === 0) throw new CommandError('BadValue', 'grantRolesToRole command requires a non-empty "roles" array');
    const manager = ctx.server.auth;
    const doc = manager.findRoleDocument(name);
    if (!doc) throw roleNotFound(name);
    manager.requireRoles(roles);
    checkNoCycle(manager, name, roles);
    manager.replaceRole(name, { ...doc, roles: roleDocuments(addRoles(rolesOf(doc), roles)) });
    return {};
  },
};
