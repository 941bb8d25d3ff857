/** `revokePrivilegesFromRole`: removes actions from a custom role's privileges. */
import { roleNotFound } from '../../auth/auth_manager.js';
import { checkCustomRoleName, parsePrivileges } from '../../auth/management.js';
import { privilegeFromDocument, privilegeToDocument, subtractPrivileges } from '../../auth/privileges.js';
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `revokePrivilegesFromRole` command. */
export const revokePrivilegesFromRole: CommandDefinition = {
  name: 'revokePrivilegesFromRole',
  target: { type: 'string' },
  args: { privileges: { type: 'array', required: true } },
  help: 'Revokes privileges from a role',
  run(ctx, cmd) {
    const name = { role: cmd.revokePrivilegesFromRole as string, db: ctx.db };
    checkCustomRoleName(name, 'revoke privileges from');
    const remove = parsePrivileges(cmd, 'privileges', 'revokePrivilegesFromRole');
    if (remove.length === 0) throw new CommandError('BadValue', 'revokePrivilegesFromRole command requires a non-empty "privileges" array');
    const manager = ctx.server.auth;
    const doc = manager.findRoleDocument(name);
    if (!doc) throw roleNotFound(name);
    const current = ((doc.privileges as Document[] | undefined) ?? []).map(privilegeFromDocument);
    manager.replaceRole(name, { ...doc, privileges: subtractPrivileges(current, remove).map(privilegeToDocument) });
    return {};
  },
};
