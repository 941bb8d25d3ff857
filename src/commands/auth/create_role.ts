/** `createRole`: a custom role of the command's database (admin.system.roles). */
import type { Document } from '../../bson/library.js';
import { privilegeToDocument } from '../../auth/privileges.js';
import { checkCustomRoleName, parsePrivileges, parseRoleNames, roleDocuments } from '../../auth/management.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';

/** The `createRole` command. */
export const createRole: CommandDefinition = {
  name: 'createRole',
  target: { type: 'string' },
  args: { privileges: { type: 'array', required: true }, roles: { type: 'array', required: true }, authenticationRestrictions: { type: 'array' } },
  help: 'Adds a role to the system',
  run(ctx, cmd) {
    const name = { role: cmd.createRole as string, db: ctx.db };
    if (ctx.db === '$external') throw new CommandError('BadValue', 'Cannot create roles in the $external database');
    checkCustomRoleName(name, 'create');
    const manager = ctx.server.auth;
    const privileges = parsePrivileges(cmd, 'privileges', 'createRole');
    const roles = parseRoleNames(cmd, 'roles', 'createRole', ctx.db);
    if (manager.findRoleDocument(name)) throw new CommandError(51002, `Role "${name.role}@${name.db}" already exists`);
    manager.requireRoles(roles);
    const doc: Document = { _id: `${name.db}.${name.role}`, role: name.role, db: name.db, privileges: privileges.map(privilegeToDocument), roles: roleDocuments(roles) };
    if (cmd.authenticationRestrictions !== undefined) doc.authenticationRestrictions = cmd.authenticationRestrictions;
    manager.insertRole(doc);
    return {};
  },
};
