/**
 * `replSetInitiate`: the set is initiated when the server starts (`--replSet`), so a member
 * answers 23 AlreadyInitialized, as an initiated mongod does; a standalone 76.
 */
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';
import { requireReplSet } from './repl_set.js';

/** The `replSetInitiate` command. */
export const replSetInitiate: CommandDefinition = {
  name: 'replSetInitiate',
  adminOnly: true,
  args: 'lenient',
  help: 'Initiate/christen a replica set.',
  run(ctx) {
    requireReplSet(ctx);
    throw new CommandError('AlreadyInitialized', 'already initialized');
  },
};
