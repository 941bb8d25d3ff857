/** `updateRole`: replaces a custom role's privileges and/or inherited roles. */
import { roleNotFound } from '../../auth/auth_manager.js';
import { privilegeToDocument } from '../../auth/privileges.js';
import { checkCustomRoleName, checkNoCycle, parsePrivileges, parseRoleNames, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `updateRole` command. */
export const updateRole: CommandDefinition = {
  name: 'updateRole',
  target: { type: 'string' },
  args: { privileges: { type: 'array' }, roles: { type: 'array' }, authenticationRestrictions: { type: 'array' } },
  help: 'Used to update a role',
  run(ctx, cmd) {
    const name = { role: cmd.updateRole as string, db: ctx.db };
    if (cmd.privileges === undefined && cmd.roles === undefined && cmd.authenticationRestrictions === undefined) {
      throw new CommandError('BadValue', 'Must specify at least one field to update in updateRole');
    }
    checkCustomRoleName(name, 'update');
    const manager = ctx.server.auth;
    const doc = manager.findRoleDocument(name);
    if (!doc) throw roleNotFound(name);
    const next = { ...doc };
    if (cmd.privileges !== undefined) next.privileges = parsePrivileges(cmd, 'privileges', 'updateRole').map(privilegeToDocument);
    if (cmd.roles !== undefined) {
      const roles = parseRoleNames(cmd, 'roles', 'updateRole', ctx.db);
      manager.requireRoles(roles);
      checkNoCycle(manager, name, roles);
      next.roles = roleDocuments(roles);
    }
    if (cmd.authenticationRestrictions !== undefined) next.authenticationRestrictions = cmd.authenticationRestrictions;
    manager.replaceRole(name, next);
    return {};
  },
};
