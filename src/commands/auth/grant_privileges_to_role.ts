/** `grantPrivilegesToRole`: adds privileges to a custom role. */
import { roleNotFound } from '../../auth/auth_manager.js';
import { checkCustomRoleName, parsePrivileges } from '../../auth/management.js';
import { mergePrivileges, privilegeFromDocument, privilegeToDocument } from '../../auth/privileges.js';
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `grantPrivilegesToRole` command. */
export const grantPrivilegesToRole: CommandDefinition = {
  name: 'grantPrivilegesToRole',
  target: { type: 'string' },
  args: { privileges: { type: 'array', required: true } },
  help: 'Grants privileges to a role',
  run(ctx, cmd) {
    const name = { role: cmd.grantPrivilegesToRole as string, db: ctx.db };
    checkCustomRoleName(name, 'grant privileges to');
    const add = parsePrivileges(cmd, 'privileges', 'grantPrivilegesToRole');
    if (add.length === 0) throw new CommandError('BadValue', 'grantPrivilegesToRole command requires a non-empty "privileges" array');
    const manager = ctx.server.auth;
    const doc = manager.findRoleDocument(name);
    if (!doc) throw roleNotFound(name);
    const current = ((doc.privileges as Document[] | undefined) ?? []).map(privilegeFromDocument);
    manager.replaceRole(name, { ...doc, privileges: mergePrivileges([...current, ...add]).map(privilegeToDocument) });
    return {};
  },
};
