/**
 * `createUser`: a user of the command's database, stored in admin.system.users with SCRAM
 * credentials for each of `mechanisms` (default SCRAM-SHA-1 and SCRAM-SHA-256).
 */
import { CommandError } from '../../errors/command_error.js';
import { makeUserDocument } from '../../auth/credentials.js';
import { credentialsFor, parseRoleNames } from '../../auth/management.js';
import type { Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';

/** The `createUser` command. */
export const createUser: CommandDefinition = {
  name: 'createUser',
  target: { type: 'string' },
  args: {
    pwd: { type: 'any' },
    customData: { type: 'object' },
    roles: { type: 'array', required: true },
    digestPassword: { type: 'bool' },
    authenticationRestrictions: { type: 'array' },
    mechanisms: { type: 'array' },
  },
  help: 'Adds a user to the system',
  run(ctx, cmd) {
    const user = cmd.createUser;
    if (typeof user !== 'string') throw new CommandError('TypeMismatch', "BSON field 'createUser.createUser' is the wrong type, expected type 'string'");
    if (user === '') throw new CommandError('BadValue', 'User document needs \'user\' field to be non-empty');
    const name = { user, db: ctx.db };
    const manager = ctx.server.auth;
    const roles = parseRoleNames(cmd, 'roles', 'createUser', ctx.db);
    let credentials: Document;
    if (cmd.pwd === undefined) {
      if (ctx.db !== '$external') throw new CommandError('BadValue', "Must provide a 'pwd' field for all user documents, except those with '$external' as the user's source db");
      if (cmd.mechanisms !== undefined) throw new CommandError('BadValue', "Cannot specify 'mechanisms' for users defined on the '$external' database");
      credentials = { external: true };
    } else {
      credentials = credentialsFor(manager, name, cmd, 'createUser');
    }
    if (manager.findUser(name)) throw new CommandError(51003, `User "${user}@${ctx.db}" already exists`);
    manager.requireRoles(roles);
    const customData = cmd.customData as Document | undefined;
    manager.insertUser(makeUserDocument(name, credentials, roles, customData));
    return {};
  },
};
