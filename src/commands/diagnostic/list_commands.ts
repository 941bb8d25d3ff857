/** `listCommands`: every command this server answers, with its help line. */
import type { Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';

/** The `listCommands` command. */
export const listCommands: CommandDefinition = {
  name: 'listCommands',
  args: 'lenient',
  help: 'get a list of all db commands',
  run(ctx) {
    const commands: Document = {};
    const defs = new Set(ctx.commands.values());
    const sorted = [...defs].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const def of sorted) {
      commands[def.name] = {
        help: def.help,
        requiresAuth: false,
        secondaryOk: true,
        adminOnly: def.adminOnly === true,
        apiVersions: [],
        deprecatedApiVersions: [],
      };
    }
    return { commands };
  },
};
