/**
 * `$listLocalSessions` (document_source_list_local_sessions.cpp): the session records of this
 * server's logical session cache. `{}` and `{allUsers: true}` list every one; `{users: [...]}`
 * the given users' (without authentication every session belongs to the user "" of database "").
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$listLocalSessions: {} | {allUsers: true} | {users: [{user, db}, ...]}}`. */
export const listLocalSessions: StageDefinition = {
  name: '$listLocalSessions',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'database', allowedIn: {}, readConcern: 'localOnly' },
  parse(spec, ctx) {
    if (ctx.collection !== null) {
      throw new CommandError('InvalidNamespace', '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection');
    }
    const everyone = listsNoAuthSessions('$listLocalSessions', spec);
    const server = ctx.runtime.server;
    return {
      *run() {
        if (everyone) yield* server.localSessions();
      },
    };
  },
};

/** The IDL's type error for `path` (14). */
function typeMismatch(path: string, value: unknown, expected: readonly [string]): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected[0]}'`);
}

/**
 * Parses the spec `{allUsers?, users?}` of `$listLocalSessions` / `$listSessions` as mongod's IDL
 * struct `ListSessionsSpec` (strict: unknown fields 40415; `allUsers` a bool, `users` an array of
 * `ListSessionsUser` `{user: string, db: string}`, both required, null elements skipped; 14 for a
 * wrong type, 40414 for a missing or null name), and says whether it lists the sessions of the
 * unauthenticated user (every session here).
 */
export function listsNoAuthSessions(stage: string, spec: unknown): boolean {
  if (!isDocument(spec)) {
    throw new CommandError('TypeMismatch', `${stage} options must be specified in an object, but found: ${bsonTypeOf(spec)}`);
  }
  for (const key of Object.keys(spec)) {
    if (key !== 'allUsers' && key !== 'users') throw new CommandError('IDLUnknownField', `BSON field 'ListSessionsSpec.${key}' is an unknown field.`);
  }
  const rawAll = spec.allUsers;
  if (rawAll !== undefined && rawAll !== null && typeof rawAll !== 'boolean') throw typeMismatch('ListSessionsSpec.allUsers', rawAll, ['bool']);
  const allUsers = rawAll === true;
  const rawUsers = spec.users;
  if (rawUsers !== undefined && rawUsers !== null && !Array.isArray(rawUsers)) throw typeMismatch('ListSessionsSpec.users', rawUsers, ['array']);
  const users: { user: string; db: string }[] = [];
  if (Array.isArray(rawUsers)) {
    rawUsers.forEach((item, i) => {
      if (item === null) return;
      if (!isDocument(item)) throw typeMismatch(`ListSessionsSpec.users.${i}`, item, ['object']);
      for (const key of Object.keys(item)) {
        if (key !== 'user' && key !== 'db') throw new CommandError('IDLUnknownField', `BSON field 'ListSessionsSpec.users.${key}' is an unknown field.`);
      }
      for (const key of ['user', 'db'] as const) {
        const v = item[key];
        if (v !== undefined && v !== null && typeof v !== 'string') throw typeMismatch(`ListSessionsSpec.users.${key}`, v, ['string']);
      }
      for (const key of ['user', 'db'] as const) {
        if (item[key] === undefined || item[key] === null) {
          throw new CommandError('IDLFailedToParse', `BSON field 'ListSessionsSpec.users.${key}' is missing but a required field`);
        }
      }
      users.push({ user: item.user as string, db: item.db as string });
    });
  }
  if (allUsers && users.length > 0) {
    throw new CommandError('UnsupportedFormat', `${stage} may not specify {allUsers:true} and {users:[...]} at the same time`);
  }
  return allUsers || rawUsers === undefined || rawUsers === null || users.some((u) => u.user === '' && u.db === '');
}
