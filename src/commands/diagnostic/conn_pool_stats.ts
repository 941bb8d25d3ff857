/**
 * `connPoolStats` (conn_pool_stats.cpp): the server's outgoing connection pools. Mayfly opens
 * no connections to other servers, so every pool is empty.
 */
import type { CommandDefinition } from '../types.js';

/** The `connPoolStats` command. */
export const connPoolStats: CommandDefinition = {
  name: 'connPoolStats',
  args: 'lenient',
  help: 'stats about connections between servers in a replica set or sharded cluster.',
  run: () => ({
    numClientConnections: 0,
    numAScopedConnections: 0,
    totalInUse: 0,
    totalAvailable: 0,
    totalLeased: 0,
    totalCreated: 0,
    totalRefreshing: 0,
    totalRefreshed: 0,
    totalWasNeverUsed: 0,
    totalWasUsedOnce: 0,
    totalConnUsageTimeMillis: 0,
    replicaSetMatchingStrategy: 'automatic',
    pools: {},
    hosts: {},
  }),
};
