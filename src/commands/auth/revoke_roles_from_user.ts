/** `revokeRolesFromUser`: removes roles from a user's roles. */
import { userNotFound } from '../../auth/auth_manager.js';
import { rolesOf } from '../../auth/credentials.js';
import { parseRoleNames, removeRoles, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `revokeRolesFromUser` command. */
export const revokeRolesFromUser: CommandDefinition = {
  name: 'revokeRolesFromUser',
  target: { type: 'string' },
  args: { roles: { type: 'array', required: true } },
  help: 'Revokes roles from a user.',
  run(ctx, cmd) {
    const name = { user: cmd.revokeRolesFromUser as string, db: ctx.db };
    const manager = ctx.server.auth;
    const roles = parseRoleNames(cmd, 'roles', 'revokeRolesFromUser', ctx.db);
    if (roles.length === 0) throw new CommandError('BadValue', 'revokeRolesFromUser command requires a non-empty "roles" array');
    const doc = manager.findUser(name);
    if (!doc) throw userNotFound(name);
    manager.requireRoles(roles);
    manager.replaceUser(name, { ...doc, roles: roleDocuments(removeRoles(rolesOf(doc), roles)) });
    return {};
  },
};
