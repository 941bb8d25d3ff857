/** `whatsmyuri`: the client's address as the server sees it. */
import type { CommandDefinition } from '../types.js';

/** The `whatsmyuri` command. */
export const whatsmyuri: CommandDefinition = {
  name: 'whatsmyuri',
  args: 'lenient',
  help: 'the client\'s own address as this server sees it',
  run: (ctx) => ({ you: ctx.connection.remoteAddress }),
};
