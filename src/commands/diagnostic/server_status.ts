/**
 * `serverStatus` (server_status.cpp): the server's state, section by section. Each section is
 * included by default or not (`mirroredReads` is not) and a field named like it toggles it by
 * truthiness (`{metrics: 0}` leaves it out, `{mirroredReads: 1}` adds it); the command's value
 * and unknown fields are ignored.
 */
import os from 'node:os';
import { Long, makeDouble, type Document } from '../../bson/library.js';
import type { ServerServices } from '../../server/services.js';
import { sessionCatalogOf } from '../../sessions/session_catalog.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { MONGODB_VERSION } from '../../version.js';
import type { CommandContext, CommandDefinition } from '../types.js';

/** `BSONElement::trueValue`. */
function trueValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (isNumber(value)) return toDouble(value) !== 0;
  return true;
}

const long = (n: number) => Long.fromNumber(n);
const SYSTEM_DBS = new Set(['admin', 'config', 'local']);

/** `catalogStats`: collections and views, the internal ones (system databases and `system.*`) apart. */
function catalogStats(server: ServerServices): Document {
  let collections = 0;
  let capped = 0;
  let views = 0;
  let internalCollections = 0;
  let internalViews = 0;
  for (const db of server.catalog.databaseNames()) {
    for (const coll of server.catalog.collections(db)) {
      if (SYSTEM_DBS.has(db) || coll.name.startsWith('system.')) internalCollections++;
      else {
        collections++;
        if (coll.capped !== null) capped++;
      }
    }
    const n = server.catalog.views(db).length;
    if (SYSTEM_DBS.has(db)) internalViews += n;
    else views += n;
  }
  return { collections, capped, clustered: 0, timeseries: 0, views, internalCollections, internalViews, csfle: 0, queryableEncryption: 0 };
}

const zeroOps = () => ({ insert: long(0), query: long(0), update: long(0), delete: long(0), getmore: long(0), command: long(0) });

/** The sections, in mongod's order: whether each is included by default, and how it is built. */
const SECTIONS: ReadonlyArray<readonly [string, boolean, (ctx: CommandContext, uptimeMs: number) => unknown]> = [
  ['asserts', true, () => ({ regular: 0, warning: 0, msg: 0, user: 0, tripwire: 0, rollovers: 0 })],
  ['catalogStats', true, (ctx) => catalogStats(ctx.server)],
  [
    'connections',
    true,
    (ctx) => {
      const c = ctx.server.counters;
      return {
        current: c.connectionsCurrent,
        available: 1_000_000 - c.connectionsCurrent,
        totalCreated: c.connectionsTotal,
        active: c.connectionsCurrent,
        // Awaitable hellos (drivers' streaming monitors) waiting for a topology change.
        awaitingTopologyChanges: Long.fromNumber(ctx.server.topology.waiting),
      };
    },
  ],
  [
    'extra_info',
    true,
    () => ({ note: 'fields vary by platform', user_time_us: long(process.cpuUsage().user), system_time_us: long(process.cpuUsage().system), maximum_resident_set_kb: long(Math.round(process.memoryUsage().rss / 1024)) }),
  ],
  [
    'globalLock',
    true,
    (_ctx, uptimeMs) => ({
      totalTime: long(uptimeMs * 1000),
      currentQueue: { total: 0, readers: 0, writers: 0 },
      activeClients: { total: 0, readers: 0, writers: 0 },
    }),
  ],
  ['locks', true, () => ({})],
  [
    'logicalSessionRecordCache',
    true,
    (ctx) => ({
      activeSessionsCount: sessionCatalogOf(ctx.server).size,
      sessionsCollectionJobCount: 0,
      lastSessionsCollectionJobDurationMillis: 0,
      lastSessionsCollectionJobTimestamp: new Date(ctx.server.startedAtMs),
      lastSessionsCollectionJobEntriesRefreshed: 0,
      lastSessionsCollectionJobEntriesEnded: 0,
      lastSessionsCollectionJobCursorsClosed: 0,
      transactionReaperJobCount: 0,
      lastTransactionReaperJobDurationMillis: 0,
      lastTransactionReaperJobTimestamp: new Date(ctx.server.startedAtMs),
      lastTransactionReaperJobEntriesCleanedUp: 0,
    }),
  ],
  [
    'mem',
    true,
    () => {
      const mb = Math.max(1, Math.round(process.memoryUsage().rss / (1024 * 1024)));
      return { bits: 64, resident: mb, virtual: mb, supported: true };
    },
  ],
  ['metrics', true, (ctx) => ({ cursor: { open: { total: long(ctx.server.cursors.size), noTimeout: long(0) } }, ttl: ctx.server.ttl.metrics() })],
  ['mirroredReads', false, () => ({ seen: long(0), sent: long(0) })],
  [
    'network',
    true,
    (ctx) => {
      const c = ctx.server.counters;
      return {
        bytesIn: long(c.bytesIn),
        bytesOut: long(c.bytesOut),
        physicalBytesIn: long(c.bytesIn),
        physicalBytesOut: long(c.bytesOut),
        numSlowDNSOperations: long(0),
        numSlowSSLOperations: long(0),
        numRequests: long(c.requests),
      };
    },
  ],
  [
    'opcounters',
    true,
    (ctx) => {
      const ops = ctx.server.counters.opcounters;
      return { insert: long(ops.insert), query: long(ops.query), update: long(ops.update), delete: long(ops.delete), getmore: long(ops.getmore), command: long(ops.command) };
    },
  ],
  ['opcountersRepl', true, zeroOps],
  ['storageEngine', true, () => ({ name: 'inMemory', supportsCommittedReads: false, persistent: false })],
  [
    'transportSecurity',
    true,
    (ctx) => {
      const t = ctx.server.counters.tlsVersions;
      return { '1.0': long(t['1.0']), '1.1': long(t['1.1']), '1.2': long(t['1.2']), '1.3': long(t['1.3']), unknown: long(t.unknown) };
    },
  ],
];

/** The `serverStatus` command. */
export const serverStatus: CommandDefinition = {
  name: 'serverStatus',
  aliases: ['serverstatus'],
  args: 'lenient',
  help: 'returns lots of administrative server statistics',
  run(ctx, cmd) {
    const { server } = ctx;
    const now = ctx.now();
    const uptimeMs = Math.max(0, now - server.startedAtMs);
    const reply: Document = {
      host: os.hostname(),
      version: MONGODB_VERSION,
      process: 'mongod',
      service: ['shard'],
      pid: Long.fromNumber(process.pid),
      uptime: makeDouble(Math.floor(uptimeMs / 1000)),
      uptimeMillis: Long.fromNumber(uptimeMs),
      uptimeEstimate: Long.fromNumber(Math.floor(uptimeMs / 1000)),
      localTime: new Date(now),
    };
    for (const [name, byDefault, build] of SECTIONS) {
      const included = cmd[name] === undefined ? byDefault : trueValue(cmd[name]);
      if (included) reply[name] = build(ctx, uptimeMs);
    }
    return reply;
  },
};
