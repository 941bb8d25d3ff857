/**
 * `replSetFreeze`: keeps a secondary from seeking election; the one member is primary, so it
 * answers 95 NotSecondary as mongod's primary does (`rs.freeze()`).
 */
import { CommandError } from '../../errors/command_error.js';
import type { CommandDefinition } from '../types.js';
import { requireReplSet } from './repl_set.js';

/** The `replSetFreeze` command. */
export const replSetFreeze: CommandDefinition = {
  name: 'replSetFreeze',
  adminOnly: true,
  target: { type: 'number' },
  args: {},
  help: "'freeze' state of member to the extent we can do that.",
  run(ctx) {
    requireReplSet(ctx);
    throw new CommandError('NotSecondary', 'Cannot freeze node when primary or running for election');
  },
};
