/**
 * The diagnostic commands through the official driver: validate, dataSize, dbHash, profile,
 * top, serverStatus's section toggles, getParameter's options, dbStats' types, connPoolStats,
 * and the $listLocalSessions spec checks, with mongod 8.2's exact replies and errors.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON, Long } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const admin = () => h.client.db('admin');
const codeOf = async (fn: () => Promise<unknown>) => {
  const e = await errorOf(fn);
  return [e.code, e.codeName];
};

describe('validate', () => {
  it('counts records and index keys, and reports a healthy collection', async () => {
    const c = h.db.collection('v');
    await c.insertMany([{ _id: 1, x: 1 }, { _id: 2, x: [2, 3] }, { _id: 3 }]);
    await c.createIndex({ x: 1 }, { name: 'x_1' });
    await c.createIndex({ x: 1 }, { name: 'x_sparse', sparse: true });
    const reply = await h.db.command({ validate: 'v' });
    expect(reply.ns).toBe(`${h.db.databaseName}.v`);
    expect(reply.nrecords).toBe(3);
    expect(reply.nIndexes).toBe(3);
    // The array gives two keys; the document without x one null key, none in the sparse index.
    expect(reply.keysPerIndex).toEqual({ _id_: 3, x_1: 4, x_sparse: 3 });
    expect(reply.indexDetails.x_1.valid).toBe(true);
    expect(reply.indexDetails.x_1.spec).toEqual({ v: 2, key: { x: 1 }, name: 'x_1' });
    expect([reply.valid, reply.repaired, reply.repairMode, reply.errors, reply.warnings]).toEqual([true, false, 'None', [], []]);
    expect([reply.nInvalidDocuments, reply.nNonCompliantDocuments, reply.corruptRecords]).toEqual([0, 0, []]);
    const metadata = await h.db.command({ validate: 'v', metadata: true });
    expect(metadata.nrecords).toBeUndefined();
    expect(metadata.nIndexes).toBe(3);
  });

  it('answers mongod errors for bad options and namespaces', async () => {
    await h.db.collection('v2').insertOne({ _id: 1 });
    const combo = await errorOf(() => h.db.command({ validate: 'v2', metadata: true, full: true }));
    expect([combo.code, combo.errmsg]).toEqual([72, 'Running the validate command with { metadata: true } is not supported with any other options']);
    const background = await errorOf(() => h.db.command({ validate: 'v2', background: 'yes' }));
    expect([background.code, background.errmsg]).toEqual([115, 'Running the validate command with { background: true } is not supported in standalone mode']);
    const missing = await errorOf(() => h.db.command({ validate: 'nope' }));
    expect([missing.code, missing.errmsg]).toEqual([26, `Collection '${h.db.databaseName}.nope' does not exist to validate.`]);
    expect(await codeOf(() => h.db.command({ validate: 1 }))).toEqual([73, 'InvalidNamespace']);
  });
});

describe('dataSize', () => {
  it('sums the BSON of a collection or of a key range', async () => {
    const docs = Array.from({ length: 10 }, (_, i) => ({ _id: i, x: i }));
    await h.db.collection('ds').insertMany(docs);
    await h.db.collection('ds').createIndex({ x: 1 });
    const ns = `${h.db.databaseName}.ds`;
    const size = (from: number, to: number) => docs.slice(from, to).reduce((n, d) => n + BSON.calculateObjectSize(d), 0);
    const all = await h.db.command({ dataSize: ns }, { promoteLongs: false });
    expect(all).toEqual({ size: Long.fromNumber(size(0, 10)), numObjects: Long.fromNumber(10), millis: 0, ok: 1 });
    const range = await h.db.command({ dataSize: ns, keyPattern: { x: 1 }, min: { x: 2 }, max: { x: 5 }, estimate: false });
    expect(range).toEqual({ estimate: false, size: size(2, 5), numObjects: 3, millis: 0, ok: 1 });
    expect(await h.db.command({ dataSize: `${h.db.databaseName}.none` })).toEqual({ size: 0, numObjects: 0, millis: 0, ok: 1 });
  });

  it('refuses half ranges, missing indexes and bad namespaces', async () => {
    const ns = `${h.db.databaseName}.ds`;
    expect(await codeOf(() => h.db.command({ dataSize: ns, keyPattern: { x: 1 }, min: { x: 1 } }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => h.db.command({ dataSize: ns, min: { y: 1 }, max: { y: 2 } }))).toEqual([96, 'OperationFailed']);
    expect(await codeOf(() => h.db.command({ dataSize: 'nodot' }))).toEqual([73, 'InvalidNamespace']);
    expect(await codeOf(() => h.db.command({ dataSize: null }))).toEqual([40414, 'IDLFailedToParse']);
    expect(await codeOf(() => h.db.command({ dataSize: ns, keyPattern: 1 }))).toEqual([14, 'TypeMismatch']);
  });
});

describe('dbHash', () => {
  it('hashes each collection as the md5 of its documents in _id order', async () => {
    const db = h.client.db(`${h.db.databaseName}_hash`);
    await db.collection('b').insertMany([{ _id: 2, v: 'two' }, { _id: 1, v: 'one' }]);
    await db.collection('a').insertOne({ _id: 1 });
    const md5 = (docs: object[]) => {
      const hash = createHash('md5');
      for (const d of docs) hash.update(BSON.serialize(d));
      return hash.digest('hex');
    };
    const a = md5([{ _id: 1 }]);
    const b = md5([{ _id: 1, v: 'one' }, { _id: 2, v: 'two' }]);
    const reply = await db.command({ dbHash: 1 });
    expect(reply.collections).toEqual({ a, b });
    expect(reply.md5).toBe(createHash('md5').update(a).update(b).digest('hex'));
    expect(reply.capped).toEqual([]);
    expect(Object.keys(reply.uuids)).toEqual(['a', 'b']);
    expect((await db.command({ dbHash: 1, collections: ['b', 'zzz'] })).collections).toEqual({ b });
    expect(await codeOf(() => db.command({ dbHash: 1, collections: [1] }))).toEqual([2, 'BadValue']);
  });
});

describe('profile', () => {
  it('keeps the level per database and the server-wide slowms and sampleRate', async () => {
    const db = h.client.db(`${h.db.databaseName}_prof`);
    expect(await db.command({ profile: 1, slowms: 50, sampleRate: 0.5 })).toEqual({ was: 0, slowms: 100, sampleRate: 1, ok: 1 });
    expect(await db.command({ profile: -1 })).toEqual({ was: 1, slowms: 50, sampleRate: 0.5, ok: 1 });
    await db.command({ profile: 2, filter: { op: 'query' } });
    expect(await db.command({ profile: -1 })).toEqual({
      was: 2,
      slowms: 50,
      sampleRate: 0.5,
      filter: { op: { $eq: 'query' } },
      note: 'When a filter expression is set, slowms and sampleRate are not used for profiling and slow-query log lines.',
      ok: 1,
    });
    await db.command({ profile: 0, slowms: 100, sampleRate: 1, filter: 'unset' });
    expect(await db.command({ profile: -1 })).toEqual({ was: 0, slowms: 100, sampleRate: 1, ok: 1 });
  });

  it('checks the level, sampleRate and filter', async () => {
    const level = await errorOf(() => h.db.command({ profile: 3 }));
    expect([level.code, level.errmsg]).toEqual([2, 'Invalid profiling level: 3']);
    expect(await codeOf(() => h.db.command({ profile: 0, sampleRate: 1.5 }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => h.db.command({ profile: 1, filter: 'Unset' }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => h.db.command({ profile: true }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => h.db.command({ profile: null }))).toEqual([40414, 'IDLFailedToParse']);
    expect(await codeOf(() => h.db.command({ profile: 0, extra: 1 }))).toEqual([40415, 'IDLUnknownField']);
  });
});

describe('top', () => {
  it('counts operations per namespace with their lock', async () => {
    const c = h.db.collection('t');
    await c.insertOne({ _id: 1 });
    await c.find({}).toArray();
    await c.updateOne({ _id: 1 }, { $set: { a: 1 } });
    await c.deleteOne({ _id: 1 });
    const usage = (await admin().command({ top: 1 })).totals[`${h.db.databaseName}.t`];
    expect([usage.insert.count, usage.queries.count, usage.update.count, usage.remove.count]).toEqual([1, 1, 1, 1]);
    expect(usage.writeLock.count).toBe(3);
    expect(usage.readLock.count).toBe(1);
    expect(usage.total.count).toBe(4);
    expect(usage.total.time).toBeGreaterThanOrEqual(usage.writeLock.time + usage.readLock.time);
    await c.drop();
    expect((await admin().command({ top: 1 })).totals[`${h.db.databaseName}.t`]).toBeUndefined();
    expect(await codeOf(() => h.db.command({ top: 1 }))).toEqual([13, 'Unauthorized']);
  });
});

describe('serverStatus, getParameter, dbStats, connPoolStats', () => {
  it('serverStatus toggles sections by truthiness', async () => {
    const reply = await admin().command({ serverStatus: 1, metrics: 0, mirroredReads: 'yes' });
    expect(reply.metrics).toBeUndefined();
    expect(reply.mirroredReads).toEqual({ seen: 0, sent: 0 });
    expect(reply.network.numRequests).toBeGreaterThan(0);
    expect(reply.network.bytesIn).toBeGreaterThan(0);
    expect(Object.keys(reply.globalLock)).toEqual(['totalTime', 'currentQueue', 'activeClients']);
    const plain = await admin().command({ serverStatus: 1 });
    expect(plain.mirroredReads).toBeUndefined();
    expect(plain.catalogStats.collections).toBeGreaterThan(0);
  });

  it('getParameter takes GetParameterOptions', async () => {
    const startup = await admin().command({ getParameter: { allParameters: true, setAt: 'startup' } });
    expect(startup.KeysRotationIntervalSec).toBe(7776000);
    expect(startup.featureCompatibilityVersion).toBeUndefined();
    const runtime = await admin().command({ getParameter: { allParameters: true, setAt: 'runtime' } });
    expect(runtime.KeysRotationIntervalSec).toBeUndefined();
    expect(runtime.logLevel).toBe(0);
    expect(await admin().command({ getParameter: { showDetails: 1 }, authSchemaVersion: 1 })).toEqual({
      authSchemaVersion: { value: 5, settableAtRuntime: false, settableAtStartup: false },
      ok: 1,
    });
    expect(await codeOf(() => admin().command({ getParameter: { setAt: 'later', allParameters: true } }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => admin().command({ getParameter: { showDetails: 'x' }, logLevel: 1 }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ getParameter: { other: 1 }, logLevel: 1 }))).toEqual([40415, 'IDLUnknownField']);
  });

  it('dbStats counts as Int64 and reports free storage on request', async () => {
    await h.db.collection('s').insertOne({ _id: 1 });
    const reply = await h.db.command({ dbStats: 1, freeStorage: true }, { promoteLongs: false });
    expect(reply.objects).toBeInstanceOf(Long);
    expect(reply.scaleFactor).toEqual(Long.fromNumber(1));
    expect(reply.freeStorageSize).toBe(0);
    expect(reply.totalFreeStorageSize).toBe(0);
  });

  it('connPoolStats reports empty pools', async () => {
    const reply = await admin().command({ connPoolStats: 1 });
    expect([reply.totalInUse, reply.totalCreated, reply.pools, reply.hosts]).toEqual([0, 0, {}, {}]);
  });
});

describe('$listLocalSessions spec', () => {
  it('parses ListSessionsSpec strictly', async () => {
    const run = (spec: unknown) => admin().command({ aggregate: 1, pipeline: [{ $listLocalSessions: spec }], cursor: {} });
    const allUsers = await errorOf(() => run({ allUsers: 1 }));
    expect([allUsers.code, allUsers.errmsg]).toEqual([14, "BSON field 'ListSessionsSpec.allUsers' is the wrong type 'int', expected type 'bool'"]);
    expect(await codeOf(() => run({ users: 'x' }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => run({ users: [{ user: 'u' }] }))).toEqual([40414, 'IDLFailedToParse']);
    expect(await codeOf(() => run({ users: [{ user: 'u', db: 'd', x: 1 }] }))).toEqual([40415, 'IDLUnknownField']);
    expect(await codeOf(() => run({ users: [null, { user: 'u', db: 'd' }], allUsers: true }))).toEqual([12, 'UnsupportedFormat']);
    expect((await run({ users: [null] })).cursor.firstBatch).toEqual([]);
  });
});
