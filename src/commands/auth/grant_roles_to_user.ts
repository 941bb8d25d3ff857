/** `grantRolesToUser`: adds roles to a user's roles. */
import { userNotFound } from '../../auth/auth_manager.js';
import { rolesOf } from '../../auth/credentials.js';
import { addRoles, parseRoleNames, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `grantRolesToUser` command. */
export const grantRolesToUser: CommandDefinition = {
  name: 'grantRolesToUser',
  target: { type: 'string' },
  args: { roles: { type: 'array', required: true } },
  help: 'Grants roles to a user.',
  run(ctx, cmd) {
    const name = { user: cmd.grantRolesToUser as string, db: ctx.db };
    const manager = ctx.server.auth;
    const roles = parseRoleNames(cmd, 'roles', 'grantRolesToUser', ctx.db);
    if (roles.length === 0) throw new CommandError('BadValue', 'grantRolesToUser command requires a non-empty "roles" array');
    const doc = manager.findUser(name);
    if (!doc) throw userNotFound(name);
    manager.requireRoles(roles);
    manager.replaceUser(name, { ...doc, roles: roleDocuments(addRoles(rolesOf(doc), roles)) });
    return {};
  },
};
