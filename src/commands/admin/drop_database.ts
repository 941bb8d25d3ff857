/** `dropDatabase`: removes every collection of the database. */
import type { CommandDefinition } from '../types.js';

/** The `dropDatabase` command. */
export const dropDatabase: CommandDefinition = {
  name: 'dropDatabase',
  args: {},
  help: 'drop (delete) this database',
  run(ctx) {
    for (const coll of ctx.server.catalog.collections(ctx.db)) ctx.server.cursors.killNamespace(coll.ns);
    ctx.server.catalog.dropDatabase(ctx.db);
    return { dropped: ctx.db };
  },
};
