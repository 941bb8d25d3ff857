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

/**
 * Parses the spec `{allUsers?, users?}` of `$listLocalSessions` / `$listSessions` (ListSessionsSpec)
 * and says whether it lists the sessions of the unauthenticated user (every session here).
 */
export function listsNoAuthSessions(stage: string, spec: unknown): boolean {
  if (!isDocument(spec)) {
    throw new CommandError('TypeMismatch', `${stage} options must be specified in an object, but found: ${bsonTypeOf(spec)}`);
  }
  for (const key of Object.keys(spec)) {
    if (key !== 'allUsers' && key !== 'users') throw new CommandError('IDLUnknownField', `BSON field '${stage}.${key}' is an unknown field.`);
  }
  const allUsers = spec.allUsers === true;
  const users = Array.isArray(spec.users) ? spec.users : undefined;
  if (allUsers && users && users.length > 0) {
    throw new CommandError('UnsupportedFormat', `${stage} may not specify {allUsers:true} and {users:[...]} at the same time`);
  }
  return allUsers || !users || users.length === 0 || users.some((u) => isDocument(u) && u.user === '' && u.db === '');
}
