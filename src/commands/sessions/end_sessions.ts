/** `endSessions`: drivers end their logical sessions; a standalone keeps no session state. */
import type { CommandDefinition } from '../types.js';

/** The `endSessions` command. */
export const endSessions: CommandDefinition = {
  name: 'endSessions',
  target: { type: 'array' },
  args: {},
  help: 'end a set of logical sessions',
  run: () => ({}),
};
