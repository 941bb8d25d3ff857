/**
 * `listDatabases`: databases with their sizes; `nameOnly` and `filter` as mongod. With access
 * control on, a user without the `listDatabases` action sees only the databases it has
 * privileges in (`authorizedDatabases`, default then); asking for all of them is 13.
 *
 * As on every mongod, `admin`, `config` and `local` are always listed: mongod keeps its own
 * collections there (admin.system.version, config.system.sessions, local.startup_log). Sizes are
 * what WiredTiger files would take: each collection and each index at least one 4 KiB page,
 * a collection at least its documents' BSON size.
 * Source: mongo/src/mongo/db/commands/list_databases.cpp, list_databases.idl (nameOnly a
 * safeBool, authorizedDatabases a bool, filter without $where, $text or the near operators).
 */
import { Decimal128, Long, type Document } from '../../bson/library.js';
import { CLUSTER } from '../../auth/privileges.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { IdlRules } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The size of a WiredTiger page: the least a collection or an index file takes. */
const PAGE_BYTES = 4096;

/** The databases mongod always has, with the files of the collections it keeps there (a collection and its indexes). */
const SERVER_DATABASES: ReadonlyMap<string, number> = new Map([
  ['admin', 2 * PAGE_BYTES], // system.version and its _id index
  ['config', 3 * PAGE_BYTES], // system.sessions, its _id and lsidTTLIndex indexes
  ['local', 2 * PAGE_BYTES], // startup_log and its _id index
]);

/** The bytes `coll` would take on disk. */
function sizeOnDisk(coll: Collection): number {
  return Math.max(PAGE_BYTES, coll.dataSize()) + PAGE_BYTES * coll.indexSpecs().length;
}

/** `BSONElement::trueValue` of a safeBool: a Decimal128 is true unless it is a zero. */
function safeBoolValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value instanceof Decimal128) return !/^-?0*\.?0*(E[+-]?\d+)?$/i.test(value.toString());
  return isNumber(value) && toDouble(value) !== 0;
}

/** The `listDatabases` command. */
export const listDatabases: CommandDefinition = {
  name: 'listDatabases',
  adminOnly: true,
  args: { filter: { type: 'object' }, nameOnly: IdlRules.safeBool, authorizedDatabases: IdlRules.bool },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'list databases on this server',
  run(ctx, cmd) {
    const nameOnly = safeBoolValue(cmd.nameOnly);
    const filter = cmd.filter ? compileQuery(cmd.filter as Document, ctx.now(), undefined, null, { whereAllowed: false, nearAllowed: false }) : null;
    const catalog = ctx.server.catalog;
    const auth = ctx.connection.auth;
    const mayListAll = !auth.manager.enabled || auth.allows(CLUSTER, ['listDatabases']);
    const authorizedOnly = auth.manager.enabled && (cmd.authorizedDatabases === true || (cmd.authorizedDatabases === undefined && !mayListAll));
    if (cmd.authorizedDatabases === false && !mayListAll) throw new CommandError('Unauthorized', 'Insufficient permissions to list all databases');
    const names = [...new Set([...catalog.databaseNames(), ...SERVER_DATABASES.keys()])].sort();
    const databases: Document[] = [];
    let totalSize = 0;
    for (const name of names) {
      if (authorizedOnly && !auth.anyOnDatabase(name)) continue;
      let size = 0;
      if (!nameOnly) {
        const colls = catalog.collections(name);
        size = colls.length === 0 ? (SERVER_DATABASES.get(name) ?? 0) : colls.reduce((sum, coll) => sum + sizeOnDisk(coll), 0);
      }
      const entry: Document = nameOnly ? { name } : { name, sizeOnDisk: Long.fromNumber(size), empty: size === 0 };
      if (filter && !filter(entry)) continue;
      totalSize += size;
      databases.push(entry);
    }
    if (nameOnly) return { databases };
    return { databases, totalSize: Long.fromNumber(totalSize), totalSizeMb: Long.fromNumber(Math.floor(totalSize / (1024 * 1024))) };
  },
};
