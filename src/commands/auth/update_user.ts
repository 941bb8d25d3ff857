/** `updateUser`: a new password, custom data, roles or mechanisms for an existing user. */
import { CommandError } from '../../errors/command_error.js';
import { userNotFound } from '../../auth/auth_manager.js';
import { mechanismsOf } from '../../auth/credentials.js';
import { credentialsFor, parseMechanisms, parseRoleNames, roleDocuments } from '../../auth/management.js';
import type { Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';

/** The `updateUser` command. */
export const updateUser: CommandDefinition = {
  name: 'updateUser',
  target: { type: 'string' },
  args: {
    pwd: { type: 'any' },
    customData: { type: 'object' },
    roles: { type: 'array' },
    digestPassword: { type: 'bool' },
    authenticationRestrictions: { type: 'array' },
    mechanisms: { type: 'array' },
  },
  help: 'Used to update a user, for example to change its password',
  run(ctx, cmd) {
    const user = cmd.updateUser as string;
    const name = { user, db: ctx.db };
    const manager = ctx.server.auth;
    const fields = ['pwd', 'customData', 'roles', 'authenticationRestrictions', 'mechanisms'];
    if (!fields.some((f) => cmd[f] !== undefined)) throw new CommandError('BadValue', 'Must specify at least one field to update in updateUser');
    const doc = manager.findUser(name);
    if (!doc) throw userNotFound(name);
    const next: Document = { ...doc };
    if (cmd.pwd !== undefined) {
      next.credentials = credentialsFor(manager, name, { ...cmd, mechanisms: cmd.mechanisms ?? mechanismsOf(doc) }, 'updateUser');
    } else if (cmd.mechanisms !== undefined) {
      // Without a password, mechanisms may only narrow the credentials kept.
      const keep = parseMechanisms(cmd.mechanisms, 'updateUser');
      const current = mechanismsOf(doc);
      const missing = keep.find((m) => !current.includes(m));
      if (missing !== undefined) throw new CommandError('BadValue', 'mechanisms field must be a subset of previously set mechanisms');
      const creds: Document = {};
      for (const m of keep) creds[m] = (doc.credentials as Document)[m];
      next.credentials = creds;
    }
    if (cmd.customData !== undefined) next.customData = cmd.customData;
    if (cmd.roles !== undefined) {
      const roles = parseRoleNames(cmd, 'roles', 'updateUser', ctx.db);
      manager.requireRoles(roles);
      next.roles = roleDocuments(roles);
    }
    manager.replaceUser(name, next);
    return {};
  },
};
