/**
 * The one-node replica set (`replSet` option, `MayflyReplSet`), through the official driver: the
 * driver discovers the set from `?replicaSet=`, `hello` answers as its primary, every reply
 * carries `$clusterTime` and `operationTime`, `replSetGetStatus`/`replSetGetConfig` have mongod's
 * shape, `replSetInitiate` answers 23; a standalone keeps refusing all of it as mongod does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, Long, MongoClient, ObjectId, Timestamp, type Document } from 'mongodb';
import { MayflyReplSet, MayflyServer, MayflyOptionError } from '../../src/index.js';
import { errorOf, startHarness, type Harness } from './harness.js';

let rs: MayflyReplSet;
let client: MongoClient;
let host: string;

beforeAll(async () => {
  rs = await MayflyReplSet.create({ replSet: { name: 'rs0' }, instance: { compat: 'mongodb' } });
  client = new MongoClient(rs.getUri(), { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  host = `127.0.0.1:${rs.servers[0]!.port}`;
});

afterAll(async () => {
  await client.close();
  await rs.stop();
});

const admin = () => client.db('admin');

describe('MayflyReplSet', () => {
  it('getUri carries the set name; the driver sees a replica set with a primary', async () => {
    expect(rs.getUri()).toBe(`mongodb://${host}/?replicaSet=rs0`);
    expect(rs.getUri('app')).toBe(`mongodb://${host}/app?replicaSet=rs0`);
    expect(rs.state).toBe('running');
    await rs.waitUntilRunning();
    await client.db('t').collection<{ _id: number }>('c').insertOne({ _id: 1 });
    expect((client as unknown as { topology?: { description: { type: string } } }).topology?.description.type).toBe('ReplicaSetWithPrimary');
  });

  it('rejects a count other than 1 and a bad name', () => {
    expect(() => new MayflyReplSet({ replSet: { count: 3 } })).toThrow(MayflyOptionError);
    expect(() => new MayflyReplSet({ replSet: { name: 'a/b' } })).toThrow("option 'replSet.name' must be a plain name such as 'rs0' (no '/' or ',', no seed list)");
  });

  it('defaults to the name testset, as mongodb-memory-server', async () => {
    const other = await MayflyReplSet.create();
    try {
      expect(other.getUri()).toMatch(/\/\?replicaSet=testset$/);
    } finally {
      await other.stop();
    }
    expect(other.state).toBe('stopped');
  });
});

describe('hello on the set', () => {
  it('answers as the primary of the set', async () => {
    const reply = await admin().command({ hello: 1 });
    expect(Object.keys(reply).slice(0, 10)).toEqual(['topologyVersion', 'hosts', 'setName', 'setVersion', 'isWritablePrimary', 'secondary', 'primary', 'me', 'electionId', 'lastWrite']);
    expect(reply.hosts).toEqual([host]);
    expect(reply.setName).toBe('rs0');
    expect(reply.setVersion).toBe(1);
    expect(reply.isWritablePrimary).toBe(true);
    expect(reply.secondary).toBe(false);
    expect(reply.primary).toBe(host);
    expect(reply.me).toBe(host);
    expect(reply.electionId).toEqual(new ObjectId('7fffffff0000000000000001'));
    expect(reply.lastWrite.opTime.t).toBe(1);
    const raw = await admin().command({ hello: 1 }, { promoteLongs: false });
    expect(raw.lastWrite.opTime.t).toEqual(Long.fromNumber(1));
    expect(reply.lastWrite.opTime.ts).toBeInstanceOf(Timestamp);
    expect(reply.lastWrite.lastWriteDate).toBeInstanceOf(Date);
  });

  it('isMaster answers ismaster: true with the same set fields', async () => {
    const reply = await admin().command({ isMaster: 1 });
    expect([reply.ismaster, reply.setName, reply.secondary, reply.primary]).toEqual([true, 'rs0', false, host]);
  });

  it('every reply carries $clusterTime (zero signature) and operationTime; a write moves them', async () => {
    const before = await admin().command({ ping: 1 }, { promoteLongs: false });
    expect(before.$clusterTime.signature).toEqual({ hash: new Binary(Buffer.alloc(20), 0), keyId: Long.ZERO });
    expect(before.operationTime).toEqual(before.$clusterTime.clusterTime);
    await client.db('t').collection('c').insertOne({ x: 1 });
    const after = await admin().command({ ping: 1 });
    expect((after.operationTime as Timestamp).compare(before.operationTime as Timestamp)).toBe(1);
    const err = await errorOf(() => admin().command({ nosuchcommand: 1 }));
    expect(err.operationTime).toBeInstanceOf(Timestamp);
  });

});

describe('replSet commands on the set', () => {
  it('replSetGetStatus: one PRIMARY member with optimes', async () => {
    const st = await admin().command({ replSetGetStatus: 1 }, { promoteLongs: false });
    expect([st.set, st.myState, st.term, st.majorityVoteCount]).toEqual(['rs0', 1, Long.fromNumber(1), 1]);
    expect(st.members).toHaveLength(1);
    const m = st.members[0] as Document;
    expect([m._id, m.name, m.health, m.state, m.stateStr, m.self, m.configVersion]).toEqual([0, host, 1, 1, 'PRIMARY', true, 1]);
    expect(m.optime).toEqual(st.optimes.appliedOpTime);
    expect(st.optimes.lastCommittedOpTime.ts).toBeInstanceOf(Timestamp);
  });

  it('replSetGetConfig: the one-member config', async () => {
    const { config } = await admin().command({ replSetGetConfig: 1 }, { promoteLongs: false });
    expect([config._id, config.version, config.term]).toEqual(['rs0', 1, 1]);
    expect(config.members).toEqual([
      { _id: 0, host, arbiterOnly: false, buildIndexes: true, hidden: false, priority: 1, tags: {}, secondaryDelaySecs: Long.ZERO, votes: 1 },
    ]);
    expect(config.settings.replicaSetId).toBeInstanceOf(ObjectId);
  });

  it('replSetInitiate answers 23 AlreadyInitialized; replSetStepDown 262 (no electable secondary)', async () => {
    const init = await errorOf(() => admin().command({ replSetInitiate: {} }));
    expect([init.code, init.codeName, init.errmsg]).toEqual([23, 'AlreadyInitialized', 'already initialized']);
    const down = await errorOf(() => admin().command({ replSetStepDown: 60 }));
    expect([down.code, down.codeName]).toEqual([262, 'ExceededTimeLimit']);
    expect(down.errmsg).toMatch(/^No electable secondaries caught up as of /);
  });

  it('replSetFreeze answers 95 NotSecondary (the member is primary); replSetGetRBID an int; replSetReconfig 238', async () => {
    const freeze = await errorOf(() => admin().command({ replSetFreeze: 10 }));
    expect([freeze.code, freeze.codeName, freeze.errmsg]).toEqual([95, 'NotSecondary', 'Cannot freeze node when primary or running for election']);
    const { rbid } = await admin().command({ replSetGetRBID: 1 });
    expect(Number.isInteger(rbid)).toBe(true);
    expect((await admin().command({ replSetGetRBID: 1 })).rbid).toBe(rbid);
    const reconfig = await errorOf(() => admin().command({ replSetReconfig: {} }));
    expect([reconfig.code, reconfig.codeName]).toEqual([238, 'NotImplemented']);
  });

  it('the replSet commands run only on admin', async () => {
    const err = await errorOf(() => client.db('t').command({ replSetGetStatus: 1 }));
    expect([err.code, err.errmsg]).toEqual([13, 'replSetGetStatus may only be run against the admin database.']);
  });

  it('readConcern majority and writeConcern majority are accepted', async () => {
    const c = client.db('t').collection<{ _id: number }>('wc');
    await c.insertOne({ _id: 1 }, { writeConcern: { w: 'majority' } });
    expect(await c.find({}, { readConcern: { level: 'majority' } }).toArray()).toEqual([{ _id: 1 }]);
  });
});

describe('a standalone refuses the replica-set commands as mongod', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it.each([
    [{ replSetGetStatus: 1 }],
    [{ replSetGetConfig: 1 }],
    [{ replSetInitiate: {} }],
    [{ replSetStepDown: 60 }],
    [{ replSetFreeze: 10 }],
    [{ replSetGetRBID: 1 }],
  ])('%o answers 76 NoReplicationEnabled', async (cmd) => {
    const err = await errorOf(() => h.client.db('admin').command(cmd));
    expect([err.code, err.codeName, err.errmsg]).toEqual([76, 'NoReplicationEnabled', 'not running with --replSet']);
  });

  it('hello has no set fields and replies carry no $clusterTime', async () => {
    const reply = await h.client.db('admin').command({ hello: 1 });
    expect([reply.setName, reply.hosts, reply.$clusterTime, reply.operationTime]).toEqual([undefined, undefined, undefined, undefined]);
    expect(h.server.getUri()).not.toMatch(/replicaSet/);
  });

  it('MayflyServer.create({ replSet }) checks the name', async () => {
    await expect(MayflyServer.create({ replSet: '' })).rejects.toThrow("MayflyServer.create(): option 'replSet' must be a non-empty string such as 'rs0', not \"\"");
  });
});
