/**
 * Commands mongod has that Mayfly does not implement yet: they answer 238 NotImplemented (never
 * a silent ok), so a client learns at once what is missing. Implementing one means adding its
 * file to the registry; it then drops out of this list.
 */
import { CommandError } from '../errors/command_error.js';
import type { CommandDefinition } from './types.js';

/** mongod commands known to Mayfly but not implemented. */
export const KNOWN_MONGOD_COMMANDS = [
  'abortTransaction', 'authenticate', 'commitTransaction', 'compact',
  'createRole', 'createUser', 'currentOp', 'dataSize', 'dropAllRolesFromDatabase',
  'dropAllUsersFromDatabase', 'dropRole', 'dropUser', 'filemd5', 'fsync',
  'getDefaultRWConcern', 'grantRolesToUser', 'killAllSessions', 'killOp', 'killSessions',
  'logout', 'mapReduce', 'profile', 'reIndex', 'replSetGetStatus', 'rolesInfo', 'saslContinue',
  'saslStart', 'shutdown', 'top', 'usersInfo', 'validate', 'validateDBMetadata', 'getnonce',
  'logRotate', 'setFeatureCompatibilityVersion', 'lockInfo', 'cloneCollectionAsCapped',
  'convertToCapped', 'setIndexCommitQuorum', 'analyze', 'checkShardingIndex', 'listSearchIndexes',
  'createSearchIndexes', 'dropSearchIndex', 'updateSearchIndex',
] as const;

/** Definitions answering 238 for the known commands not in `implemented`. */
export function notImplementedCommands(implemented: readonly CommandDefinition[]): CommandDefinition[] {
  const have = new Set(implemented.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
  return KNOWN_MONGOD_COMMANDS.filter((name) => !have.has(name)).map((name) => ({
    name,
    args: 'lenient',
    help: `${name} (not implemented by Mayfly yet)`,
    run() {
      throw new CommandError('NotImplemented', `The '${name}' command is not implemented by Mayfly yet`);
    },
  }));
}
