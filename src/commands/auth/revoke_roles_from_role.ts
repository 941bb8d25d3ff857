/** `revokeRolesFromRole`: a custom role stops inheriting roles. */
import { roleNotFound } from '../../auth/auth_manager.js';
import { rolesOf } from '../../auth/credentials.js';
import { checkCustomRoleName, parseRoleNames, removeRoles, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `revokeRolesFromRole` command. */
export const revokeRolesFromRole: CommandDefinition = {
  name: 'revokeRolesFromRole',
  target: { type: 'string' },
  args: { roles: { type: 'array', required: true } },
  help: 'Revokes roles from another role.',
  run(ctx, cmd) {
    const name = { role: cmd.revokeRolesFromRole as string, db: ctx.db };
    checkCustomRoleName(name, 'revoke roles from');
    const roles = parseRoleNames(cmd, 'roles', 'revokeRolesFromRole', ctx.db);
    if (roles.length === 0) throw new CommandError('BadValue', 'revokeRolesFromRole command requires a non-empty "roles" array');
    const manager = ctx.server.auth;
    const doc = manager.findRoleDocument(name);
    if (!doc) throw roleNotFound(name);
    manager.requireRoles(roles);
    manager.replaceRole(name, { ...doc, roles: roleDocuments(removeRoles(rolesOf(doc), roles)) });
    return {};
  },
};
