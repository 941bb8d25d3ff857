/** `getCmdLineOpts`: the command line the server was started with. */
import type { CommandDefinition } from '../types.js';

/** The `getCmdLineOpts` command. */
export const getCmdLineOpts: CommandDefinition = {
  name: 'getCmdLineOpts',
  adminOnly: true,
  args: 'lenient',
  help: 'get argv',
  run: (ctx) => ({ argv: [...ctx.server.settings.argv], parsed: ctx.server.settings.parsed }),
};
