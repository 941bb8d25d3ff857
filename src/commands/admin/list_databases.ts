/**
 * `listDatabases`: databases with their sizes; `nameOnly` and `filter` as mongod. With access
 * control on, a user without the `listDatabases` action sees only the databases it has
 * privileges in (`authorizedDatabases`, default then); asking for all of them is 13.
 */
import { Long, type Document } from '../../bson/library.js';
import { CLUSTER } from '../../auth/privileges.js';
import { CommandError } from '../../errors/command_error.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import type { CommandDefinition } from '../types.js';

/** The `listDatabases` command. */
export const listDatabases: CommandDefinition = {
  name: 'listDatabases',
  adminOnly: true,
  args: { filter: { type: 'object' }, nameOnly: { type: 'bool' }, authorizedDatabases: { type: 'bool' } },
  help: 'list databases on this server',
  run(ctx, cmd) {
    const nameOnly = cmd.nameOnly === true || (typeof cmd.nameOnly === 'number' && cmd.nameOnly !== 0);
    const filter = cmd.filter ? compileQuery(cmd.filter as Document, ctx.now()) : null;
    const catalog = ctx.server.catalog;
    const auth = ctx.connection.auth;
    const mayListAll = !auth.manager.enabled || auth.allows(CLUSTER, ['listDatabases']);
    const authorizedOnly = auth.manager.enabled && (cmd.authorizedDatabases === true || (cmd.authorizedDatabases === undefined && !mayListAll));
    if (cmd.authorizedDatabases === false && !mayListAll) throw new CommandError('Unauthorized', 'Insufficient permissions to list all databases');
    const databases: Document[] = [];
    let totalSize = 0;
    for (const name of catalog.databaseNames()) {
      if (authorizedOnly && !auth.anyOnDatabase(name)) continue;
      let size = 0;
      if (!nameOnly) for (const coll of catalog.collections(name)) size += coll.dataSize();
      const entry: Document = nameOnly ? { name } : { name, sizeOnDisk: Long.fromNumber(size), empty: false };
      if (filter && !filter(entry)) continue;
      totalSize += size;
      databases.push(entry);
    }
    if (nameOnly) return { databases };
    return { databases, totalSize: Long.fromNumber(totalSize), totalSizeMb: Long.fromNumber(Math.floor(totalSize / (1024 * 1024))) };
  },
};
