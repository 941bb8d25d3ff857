/**
 * `usersInfo`: the users of this database (`1`), one (`"name"` or `{ user, db }`), several (an
 * array), or of every database (`{ forAllDBs: true }`); `showCredentials`, `showPrivileges`,
 * and `filter` (with `1` or `forAllDBs`) as mongod.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { parseUserName, userInfoDocument } from '../../auth/management.js';
import { compileFilter } from '../../storage/query/compile_filter.js';
import { isNumber } from '../../storage/values/numeric.js';
import type { CommandDefinition } from '../types.js';

function byUserThenDb(a: Document, b: Document): number {
  const ua = String(a.user);
  const ub = String(b.user);
  if (ua !== ub) return ua < ub ? -1 : 1;
  const da = String(a.db);
  const db = String(b.db);
  return da < db ? -1 : da > db ? 1 : 0;
}

/** The `usersInfo` command. */
export const usersInfo: CommandDefinition = {
  name: 'usersInfo',
  args: {
    showCredentials: { type: 'bool' },
    showCustomData: { type: 'bool' },
    showPrivileges: { type: 'bool' },
    showAuthenticationRestrictions: { type: 'bool' },
    filter: { type: 'object' },
  },
  help: 'Returns information about users.',
  run(ctx, cmd) {
    const manager = ctx.server.auth;
    const arg = cmd.usersInfo;
    const showCredentials = cmd.showCredentials === true;
    const showPrivileges = cmd.showPrivileges === true;
    const all = manager.allUsers();
    let docs: Document[];
    const isAllForm = isNumber(arg) || (typeof arg === 'object' && arg !== null && !Array.isArray(arg) && (arg as Document).forAllDBs === true);
    if (isNumber(arg)) {
      if (Number(arg) !== 1) throw new CommandError('BadValue', 'User and role names must be either strings or objects');
      docs = all.filter((d) => d.db === ctx.db).sort(byUserThenDb);
    } else if (isAllForm) {
      docs = [...all].sort(byUserThenDb);
    } else {
      const names = (Array.isArray(arg) ? arg : [arg]).map((n) => parseUserName(n, ctx.db));
      docs = [];
      for (const name of names) {
        const doc = manager.findUser(name);
        if (doc && !docs.includes(doc)) docs.push(doc);
      }
    }
    if (cmd.filter !== undefined) {
      if (!isAllForm) throw new CommandError('BadValue', 'Filter is only supported in mode {usersInfo: 1} or {usersInfo: {forAllDBs: true}}');
      const predicate = compileFilter(cmd.filter as Document);
      docs = docs.filter((d) => predicate(userInfoDocument(manager, d, false, false)));
    }
    return { users: docs.map((d) => userInfoDocument(manager, d, showCredentials, showPrivileges)) };
  },
};
