/**
 * Cluster-time gossip: on a replica set a client's `$clusterTime` ahead of the server moves the
 * logical clock (and a behind one does not); replies get `$clusterTime` and `operationTime`; a
 * standalone does neither.
 */
import { describe, expect, it } from 'vitest';
import { Timestamp } from '../../../src/bson/library.js';
import { addClusterTime, gossipClusterTimeIn } from '../../../src/commands/replication/cluster_time.js';
import { LogicalClock } from '../../../src/server/logical_clock.js';
import type { ServerServices } from '../../../src/server/services.js';
import { Clock } from '../../../src/ttl/clock.js';

function fakeServer(replSetName: string | null): ServerServices {
  const clock = new Clock('manual');
  return { settings: { replSetName }, logicalClock: new LogicalClock(clock) } as unknown as ServerServices;
}

describe('cluster time gossip', () => {
  it('a $clusterTime ahead moves the clock; one behind leaves it', () => {
    const server = fakeServer('rs0');
    const ahead = new Timestamp({ t: 4_000_000_000, i: 7 });
    gossipClusterTimeIn(server, { ping: 1, $clusterTime: { clusterTime: ahead } });
    expect(server.logicalClock.now()).toEqual(ahead);
    gossipClusterTimeIn(server, { ping: 1, $clusterTime: { clusterTime: new Timestamp({ t: 5, i: 1 }) } });
    expect(server.logicalClock.now()).toEqual(ahead);
    const reply = addClusterTime(server, { ok: 1 });
    expect(Object.keys(reply)).toEqual(['ok', '$clusterTime', 'operationTime']);
    expect(reply.operationTime).toEqual(ahead);
  });

  it('a malformed $clusterTime is ignored', () => {
    const server = fakeServer('rs0');
    const before = server.logicalClock.now();
    gossipClusterTimeIn(server, { ping: 1, $clusterTime: { clusterTime: 5 } });
    gossipClusterTimeIn(server, { ping: 1, $clusterTime: 'x' });
    expect(server.logicalClock.now()).toEqual(before);
  });

  it('a standalone neither takes gossip nor reports cluster time', () => {
    const server = fakeServer(null);
    const before = server.logicalClock.now();
    gossipClusterTimeIn(server, { ping: 1, $clusterTime: { clusterTime: new Timestamp({ t: 4_000_000_000, i: 7 }) } });
    expect(server.logicalClock.now()).toEqual(before);
    expect(addClusterTime(server, { ok: 1 })).toEqual({ ok: 1 });
  });
});
