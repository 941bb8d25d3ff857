/** `refreshSessions`: keeps sessions alive; nothing to do on a standalone without session state. */
import type { CommandDefinition } from '../types.js';

/** The `refreshSessions` command. */
export const refreshSessions: CommandDefinition = {
  name: 'refreshSessions',
  target: { type: 'array' },
  args: {},
  help: 'renew a set of logical sessions',
  run: () => ({}),
};
