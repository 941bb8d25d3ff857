/** `getCmdLineOpts`: the command line the server was started with. */
import type { CommandDefinition } from '../types.js';

/** The `getCmdLineOpts` command. */
export const getCmdLineOpts: CommandDefinition = {
  name: 'getCmdLineOpts',
  adminOnly: true,
  // mongod 8's IDL command: an unknown field is 40415.
  args: {},
  help: 'get argv',
  run: (ctx) => ({ argv: [...ctx.server.settings.argv], parsed: ctx.server.settings.parsed }),
};
