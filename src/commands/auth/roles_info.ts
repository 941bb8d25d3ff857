/**
 * `rolesInfo`: the custom roles of this database (`1`, with the built-in ones given
 * `showBuiltinRoles`), one (`"name"` or `{ role, db }`), or several (an array);
 * `showPrivileges` adds each role's own and inherited privileges.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { parseRoleName, roleInfoDocument } from '../../auth/management.js';
import { builtinRoleNames, type RoleName } from '../../auth/roles.js';
import { isNumber } from '../../storage/values/numeric.js';
import type { CommandDefinition } from '../types.js';

/** The `rolesInfo` command. */
export const rolesInfo: CommandDefinition = {
  name: 'rolesInfo',
  args: { showPrivileges: { type: ['bool', 'string'] }, showBuiltinRoles: { type: 'bool' }, showAuthenticationRestrictions: { type: 'bool' } },
  help: 'Returns information about roles.',
  run(ctx, cmd) {
    const manager = ctx.server.auth;
    const arg = cmd.rolesInfo;
    const showPrivileges = cmd.showPrivileges === true || cmd.showPrivileges === 'asUserFragment';
    let names: RoleName[];
    if (isNumber(arg)) {
      if (Number(arg) !== 1) throw new CommandError('BadValue', 'User and role names must be either strings or objects');
      names = manager.allRoles().filter((d) => d.db === ctx.db).map((d) => ({ role: String(d.role), db: ctx.db }));
      names.sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
      if (cmd.showBuiltinRoles === true) names = [...builtinRoleNames(ctx.db).map((role) => ({ role, db: ctx.db })), ...names];
    } else {
      names = (Array.isArray(arg) ? arg : [arg]).map((n) => parseRoleName(n, ctx.db));
    }
    const roles: Document[] = [];
    for (const name of names) {
      const doc = roleInfoDocument(manager, name, showPrivileges);
      if (doc) roles.push(doc);
    }
    return { roles };
  },
};
