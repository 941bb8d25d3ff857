/** `serverStatus`: process, connection, operation and TTL counters. */
import os from 'node:os';
import { Long, makeDouble } from '../../bson/library.js';
import { MONGODB_VERSION } from '../../version.js';
import type { CommandDefinition } from '../types.js';

/** The `serverStatus` command. */
export const serverStatus: CommandDefinition = {
  name: 'serverStatus',
  aliases: ['serverstatus'],
  args: 'lenient',
  help: 'returns lots of administrative server statistics',
  run(ctx) {
    const { server } = ctx;
    const now = ctx.now();
    const uptimeMs = Math.max(0, now - server.startedAtMs);
    const mem = process.memoryUsage();
    const c = server.counters;
    const ops = c.opcounters;
    return {
      host: os.hostname(),
      version: MONGODB_VERSION,
      process: 'mongod',
      service: ['shard'],
      pid: Long.fromNumber(process.pid),
      uptime: makeDouble(Math.floor(uptimeMs / 1000)),
      uptimeMillis: Long.fromNumber(uptimeMs),
      uptimeEstimate: Long.fromNumber(Math.floor(uptimeMs / 1000)),
      localTime: new Date(now),
      connections: {
        current: c.connectionsCurrent,
        available: 1_000_000 - c.connectionsCurrent,
        totalCreated: c.connectionsTotal,
        active: c.connectionsCurrent,
        // Awaitable hellos (drivers' streaming monitors) waiting for a topology change.
        awaitingTopologyChanges: Long.fromNumber(ctx.server.topology.waiting),
      },
      opcounters: {
        insert: Long.fromNumber(ops.insert),
        query: Long.fromNumber(ops.query),
        update: Long.fromNumber(ops.update),
        delete: Long.fromNumber(ops.delete),
        getmore: Long.fromNumber(ops.getmore),
        command: Long.fromNumber(ops.command),
      },
      transportSecurity: {
        '1.0': Long.fromNumber(c.tlsVersions['1.0']),
        '1.1': Long.fromNumber(c.tlsVersions['1.1']),
        '1.2': Long.fromNumber(c.tlsVersions['1.2']),
        '1.3': Long.fromNumber(c.tlsVersions['1.3']),
        unknown: Long.fromNumber(c.tlsVersions.unknown),
      },
      mem: { bits: 64, resident: Math.round(mem.rss / (1024 * 1024)), virtual: Math.round(mem.rss / (1024 * 1024)), supported: true },
      metrics: {
        cursor: { open: { total: Long.fromNumber(server.cursors.size), noTimeout: Long.fromNumber(0) } },
        ttl: server.ttl.metrics(),
      },
      storageEngine: { name: 'inMemory', supportsCommittedReads: false, persistent: false },
    };
  },
};
