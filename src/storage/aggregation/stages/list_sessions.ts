/**
 * `$listSessions` (document_source_list_sessions.cpp): the sessions of `config.system.sessions`,
 * where mongod's session cache persists its records. Mayfly keeps one session catalog and lists
 * it here as it is (mongod's copy lags by up to `logicalSessionRefreshMillis`, five minutes).
 * The spec is `$listLocalSessions`'s; the pipeline must run on `config.system.sessions` (73).
 */
import { CommandError } from '../../../errors/command_error.js';
import type { StageDefinition } from '../stage.js';
import { listsNoAuthSessions } from './list_local_sessions.js';

/** `{$listSessions: {} | {allUsers: true} | {users: [{user, db}, ...]}}` on config.system.sessions. */
export const listSessions: StageDefinition = {
  name: '$listSessions',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {} },
  parse(spec, ctx) {
    if (ctx.runtime.db !== 'config' || ctx.collection !== 'system.sessions') {
      throw new CommandError('InvalidNamespace', '$listSessions may only be run against config.system.sessions');
    }
    const everyone = listsNoAuthSessions('$listSessions', spec);
    const server = ctx.runtime.server;
    return {
      *run() {
        if (everyone) yield* server.localSessions();
      },
    };
  },
};
