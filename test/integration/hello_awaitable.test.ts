/**
 * hello's `topologyVersion` and the awaitable hello (the drivers' streaming monitor): a hello
 * that sends back the current topologyVersion with maxAwaitTimeMS is answered after that time,
 * not at once; the argument checks are mongod's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long, MongoClient, ObjectId, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});
afterAll(async () => h.close());

const hello = (cmd: Document = {}) => h.client.db('admin').command({ hello: 1, ...cmd });

/**
 * serverStatus's count of waiting hellos once it is `n`: a driver's monitor sends its first
 * awaitable hello some hundred milliseconds after connecting (minHeartbeatFrequencyMS), and a
 * closed client's socket closes asynchronously, so this polls, at most 5 s.
 */
async function awaitingOnce(n: number): Promise<number> {
  let waiting = -1;
  for (let i = 0; i < 250; i++) {
    waiting = (await h.client.db('admin').command({ serverStatus: 1 })).connections.awaitingTopologyChanges as number;
    if (waiting === n) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return waiting;
}

describe('topologyVersion', () => {
  it('is an ObjectId process id and a Long counter, the same on every hello', async () => {
    const first = await hello();
    const second = await hello();
    expect(first.topologyVersion.processId).toBeInstanceOf(ObjectId);
    expect(first.topologyVersion.counter).toBe(0); // a Long on the wire, promoted by the driver
    expect(second.topologyVersion.processId.equals(first.topologyVersion.processId)).toBe(true);
    expect(Object.keys(first).slice(0, 2)).toEqual(['isWritablePrimary', 'topologyVersion']);
  });

  it('comes first in a replica-set member hello', async () => {
    const rs = await startHarness({ compat: 'mongodb', replSet: 'rs0' });
    try {
      const reply = await rs.client.db('admin').command({ hello: 1 });
      expect(Object.keys(reply).slice(0, 3)).toEqual(['topologyVersion', 'hosts', 'setName']);
    } finally {
      await rs.close();
    }
  });
});

describe('awaitable hello', () => {
  it('waits maxAwaitTimeMS when the topology is unchanged', async () => {
    const { topologyVersion } = await hello();
    const started = Date.now();
    const reply = await hello({ topologyVersion, maxAwaitTimeMS: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply.isWritablePrimary).toBe(true);
  });

  it('answers at once for another process id or an older counter', async () => {
    const started = Date.now();
    await hello({ topologyVersion: { processId: new ObjectId(), counter: new Long(0) }, maxAwaitTimeMS: 5000 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("keeps a driver's streaming monitor waiting instead of polling", async () => {
    // The harness client's monitor is parked on one awaitable hello.
    expect(await awaitingOnce(1)).toBe(1);
  });

  it('streams: each awaited heartbeat of a driver succeeds (exhaust with moreToCome)', async () => {
    const client = new MongoClient(h.server.getUri(), { heartbeatFrequencyMS: 500 });
    const failures: string[] = [];
    let awaited = 0;
    client.on('serverHeartbeatFailed', (e) => failures.push(e.failure.message));
    const threeAwaited = new Promise<void>((resolve) => {
      client.on('serverHeartbeatSucceeded', (e) => {
        if (e.awaited && ++awaited === 3) resolve();
      });
    });
    await client.connect();
    try {
      // Three awaited answers on one streaming exhaust: at the 500 ms heartbeat, about 1.5 s.
      await threeAwaited;
      expect(failures).toEqual([]);
      expect(awaited).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('frees the wait when the client goes away', async () => {
    const other = new MongoClient(h.server.getUri());
    await other.connect();
    expect(await awaitingOnce(2)).toBe(2);
    await other.close();
    expect(await awaitingOnce(1)).toBe(1);
  });

  it.each([
    [{ maxAwaitTimeMS: 10 }, 31368, "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'"],
    [{ topologyVersion: { processId: new ObjectId(), counter: new Long(0) } }, 31368, "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"],
    [{ topologyVersion: { processId: new ObjectId(), counter: Long.fromNumber(-1) }, maxAwaitTimeMS: 10 }, 31372, 'topologyVersion must have a non-negative counter'],
    [{ topologyVersion: { processId: new ObjectId(), counter: new Long(0) }, maxAwaitTimeMS: -1 }, 51024, "BSON field 'maxAwaitTimeMS' value must be >= 0, actual value '-1'"],
    [{ topologyVersion: { processId: 'x', counter: new Long(0) }, maxAwaitTimeMS: 10 }, 14, "BSON field 'TopologyVersion.processId' is the wrong type 'string', expected type 'objectId'"],
  ])('%j answers %i', async (args, code, message) => {
    const err = await errorOf(() => hello(args));
    expect(err.code).toBe(code);
    expect(err.errmsg).toBe(message);
  });

  it('refuses a counter newer than the server has (31382)', async () => {
    const { topologyVersion } = await hello();
    const err = await errorOf(() => hello({ topologyVersion: { processId: topologyVersion.processId, counter: new Long(5) }, maxAwaitTimeMS: 10 }));
    expect(err.code).toBe(31382);
    expect(err.errmsg).toBe('Received a topology version with counter: 5 which is greater than the server topology version counter: 0');
  });
});
