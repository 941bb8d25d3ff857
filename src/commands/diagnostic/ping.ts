/** `ping`: answers ok. */
import type { CommandDefinition } from '../types.js';

/** The `ping` command. */
export const ping: CommandDefinition = {
  name: 'ping',
  args: 'lenient',
  help: 'a way to check that the server is alive. responds immediately even if server is in a db lock.',
  run: () => ({}),
};
