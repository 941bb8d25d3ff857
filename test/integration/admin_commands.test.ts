/**
 * The administration commands through the official driver: fsync / fsyncUnlock lock counting,
 * autoCompact, setClusterParameter / getClusterParameter, setFeatureCompatibilityVersion,
 * dropConnections, killOp, logRotate and compactStructuredEncryptionData, with mongod 8.2's
 * exact replies and errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, MongoClient, Timestamp } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const admin = () => h.client.db('admin');
/** The raw reply, Int64s kept as Long. */
const raw = (cmd: Record<string, unknown>) => admin().command(cmd, { promoteLongs: false });
const codeOf = async (fn: () => Promise<unknown>) => {
  const e = await errorOf(fn);
  return [e.code, e.codeName];
};

describe('fsync and fsyncUnlock', () => {
  it('fsync without a lock flushes: numFiles 1, no lock fields', async () => {
    expect(await admin().command({ fsync: 1 })).toEqual({ numFiles: 1, ok: 1 });
    expect(await admin().command({ fsync: 1, lock: 0 })).toEqual({ numFiles: 1, ok: 1 });
    expect(await admin().command({ fsync: 1, lock: null })).toEqual({ numFiles: 1, ok: 1 });
  });

  it('locks nest, survive the connection that took them, and unlock one at a time', async () => {
    const first = await raw({ fsync: 1, lock: true });
    expect(first).toEqual({
      info: 'now locked against writes, use db.fsyncUnlock() to unlock',
      lockCount: Long.fromNumber(1),
      seeAlso: 'http://dochub.mongodb.org/core/fsynccommand',
      ok: 1,
    });
    const other = new MongoClient(h.server.getUri());
    await other.connect();
    expect((await other.db('admin').command({ fsync: 1, lock: new Decimal128('-1.5') }, { promoteLongs: false })).lockCount).toEqual(Long.fromNumber(2));
    await other.close();
    const lockInfo = await admin().command({ lockInfo: 1 });
    expect(lockInfo.lockInfo).toHaveLength(1);
    expect(lockInfo.lockInfo[0].resourceId).toBe('{1: Global, 1}');
    expect(lockInfo.lockInfo[0].pending).toEqual([]);
    expect(await raw({ fsyncUnlock: 1 })).toEqual({ info: 'fsyncUnlock completed', lockCount: Long.fromNumber(1), ok: 1 });
    expect(await raw({ fsyncUnlock: 1, anything: 1 })).toEqual({ info: 'fsyncUnlock completed', lockCount: Long.fromNumber(0), ok: 1 });
    expect((await admin().command({ lockInfo: 1 })).lockInfo).toEqual([]);
    const notLocked = await errorOf(() => admin().command({ fsyncUnlock: 1 }));
    expect([notLocked.code, notLocked.codeName, notLocked.errmsg]).toEqual([20, 'IllegalOperation', 'fsyncUnlock called when not locked']);
  });

  it('checks its arguments as the IDL does', async () => {
    const lock = await errorOf(() => admin().command({ fsync: 1, lock: 'x' }));
    expect([lock.code, lock.errmsg]).toEqual([14, "BSON field 'fsync.lock' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"]);
    const timeout = await errorOf(() => admin().command({ fsync: 1, fsyncLockAcquisitionTimeoutMillis: Long.fromNumber(5) }));
    expect([timeout.code, timeout.errmsg]).toEqual([14, "BSON field 'fsync.fsyncLockAcquisitionTimeoutMillis' is the wrong type 'long', expected type 'int'"]);
    const unknown = await errorOf(() => admin().command({ fsync: 1, Lock: true }));
    expect([unknown.code, unknown.errmsg]).toEqual([40415, "BSON field 'fsync.Lock' is an unknown field."]);
    expect(await codeOf(() => admin().command({ fsync: 1, writeConcern: { w: 1 } }))).toEqual([72, 'InvalidOptions']);
    const elsewhere = await errorOf(() => h.db.command({ fsync: 1 }));
    expect([elsewhere.code, elsewhere.errmsg]).toEqual([13, 'fsync may only be run against the admin database.']);
  });
});

describe('autoCompact', () => {
  it('enables, refuses a different running configuration, and disables', async () => {
    expect(await admin().command({ autoCompact: true, freeSpaceTargetMB: 30 })).toEqual({ ok: 1 });
    expect(await admin().command({ autoCompact: true, freeSpaceTargetMB: new Double(30.9) })).toEqual({ ok: 1 });
    expect(await codeOf(() => admin().command({ autoCompact: true, freeSpaceTargetMB: 50 }))).toEqual([23, 'AlreadyInitialized']);
    expect(await admin().command({ autoCompact: false })).toEqual({ ok: 1 });
    expect(await admin().command({ autoCompact: true, freeSpaceTargetMB: 50, runOnce: true })).toEqual({ ok: 1 });
    // A single pass leaves nothing running: another configuration is accepted.
    expect(await admin().command({ autoCompact: true, freeSpaceTargetMB: 60 })).toEqual({ ok: 1 });
    expect(await admin().command({ autoCompact: false })).toEqual({ ok: 1 });
  });

  it('checks freeSpaceTargetMB and the types', async () => {
    expect(await codeOf(() => admin().command({ autoCompact: true, freeSpaceTargetMB: 0 }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => admin().command({ autoCompact: true, freeSpaceTargetMB: Long.fromBigInt(2n ** 43n) }))).toEqual([2, 'BadValue']);
    expect(await admin().command({ autoCompact: false, freeSpaceTargetMB: Long.fromBigInt(2n ** 43n) })).toEqual({ ok: 1 });
    const value = await errorOf(() => admin().command({ autoCompact: 1 }));
    expect([value.code, value.errmsg]).toEqual([14, "BSON field 'autoCompact.autoCompact' is the wrong type 'int', expected type 'bool'"]);
    const missing = await errorOf(() => admin().command({ autoCompact: null }));
    expect([missing.code, missing.errmsg]).toEqual([40414, "BSON field 'autoCompact.autoCompact' is missing but a required field"]);
    expect(await codeOf(() => admin().command({ autoCompact: true, runOnce: 1 }))).toEqual([14, 'TypeMismatch']);
  });
});

describe('setClusterParameter and getClusterParameter', () => {
  it('reports defaults, stores a new value with a newer clusterParameterTime, and resets', async () => {
    const before = await admin().command({ getClusterParameter: 'changeStreamOptions' });
    expect(before.clusterParameters).toEqual([
      { _id: 'changeStreamOptions', clusterParameterTime: new Timestamp({ t: 0, i: 0 }), preAndPostImages: { expireAfterSeconds: 'off' } },
    ]);
    expect(await admin().command({ setClusterParameter: { changeStreamOptions: { preAndPostImages: { expireAfterSeconds: 7200 } } } })).toEqual({ ok: 1 });
    const after = await admin().command({ getClusterParameter: ['changeStreamOptions', 'changeStreams'] }, { promoteLongs: false });
    expect(after.clusterParameters[0].preAndPostImages).toEqual({ expireAfterSeconds: Long.fromNumber(7200) });
    expect((after.clusterParameters[0].clusterParameterTime as Timestamp).greaterThan(new Timestamp({ t: 0, i: 0 }))).toBe(true);
    expect(after.clusterParameters[1]).toEqual({ _id: 'changeStreams', clusterParameterTime: new Timestamp({ t: 0, i: 0 }), expireAfterSeconds: Long.fromNumber(3600) });
    await admin().command({ setClusterParameter: { pauseMigrationsDuringMultiUpdates: { enabled: null } } });
    expect((await admin().command({ getClusterParameter: 'pauseMigrationsDuringMultiUpdates' })).clusterParameters[0].enabled).toBe(false);
    const all = await admin().command({ getClusterParameter: '*' });
    expect(all.clusterParameters.map((p: { _id: string }) => p._id)).toContain('fleDisableSubstringPreviewParameterLimits');
  });

  it('answers mongod codes for bad requests', async () => {
    expect(await codeOf(() => admin().command({ setClusterParameter: { nope: { x: 1 } } }))).toEqual([4, 'NoSuchKey']);
    expect(await codeOf(() => admin().command({ setClusterParameter: { changeStreams: { expireAfterSeconds: 1 }, changeStreamOptions: {} } }))).toEqual([72, 'InvalidOptions']);
    expect(await codeOf(() => admin().command({ setClusterParameter: { changeStreamOptions: { $bad: 1 } } }))).toEqual([52, 'DollarPrefixedFieldName']);
    expect(await codeOf(() => admin().command({ setClusterParameter: { changeStreams: { expireAfterSeconds: 0 } } }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => admin().command({ setClusterParameter: { pauseMigrationsDuringMultiUpdates: { enabled: 1 } } }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ setClusterParameter: null }))).toEqual([40414, 'IDLFailedToParse']);
    expect(await codeOf(() => admin().command({ getClusterParameter: ['changeStreams', 'nope'] }))).toEqual([4, 'NoSuchKey']);
    expect(await codeOf(() => admin().command({ getClusterParameter: [] }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => admin().command({ getClusterParameter: [1] }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => h.db.command({ getClusterParameter: '*' }))).toEqual([13, 'Unauthorized']);
  });
});

describe('setFeatureCompatibilityVersion', () => {
  it('moves between 8.2 and 8.0 with confirm, as getParameter reports', async () => {
    expect(await admin().command({ getParameter: 1, featureCompatibilityVersion: 1 })).toEqual({ featureCompatibilityVersion: { version: '8.2' }, ok: 1 });
    const unconfirmed = await errorOf(() => admin().command({ setFeatureCompatibilityVersion: '8.0' }));
    expect(unconfirmed.code).toBe(7369100);
    expect(await admin().command({ setFeatureCompatibilityVersion: '8.0', confirm: 1 })).toEqual({ ok: 1 });
    expect(await admin().command({ getParameter: 1, featureCompatibilityVersion: 1 })).toEqual({ featureCompatibilityVersion: { version: '8.0' }, ok: 1 });
    expect(await admin().command({ setFeatureCompatibilityVersion: '8.2', confirm: true })).toEqual({ ok: 1 });
    expect((await admin().command({ getParameter: 1, featureCompatibilityVersion: 1 })).featureCompatibilityVersion).toEqual({ version: '8.2' });
  });

  it('refuses unknown versions, wrong types and setParameter', async () => {
    const bad = await errorOf(() => admin().command({ setFeatureCompatibilityVersion: '7.5', confirm: true }));
    expect(bad.code).toBe(4926900);
    expect(bad.errmsg).toBe("Invalid feature compatibility version value '7.5'; expected '8.0' or '8.2'. See https://docs.mongodb.com/master/release-notes/8.2-compatibility/#feature-compatibility.");
    expect(await codeOf(() => admin().command({ setFeatureCompatibilityVersion: 8, confirm: true }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ setFeatureCompatibilityVersion: '8.2', confirm: 'yes' }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ setFeatureCompatibilityVersion: '8.2', confrim: true }))).toEqual([40415, 'IDLUnknownField']);
    expect(await codeOf(() => admin().command({ setParameter: 1, featureCompatibilityVersion: '8.0' }))).toEqual([20, 'IllegalOperation']);
  });
});

describe('dropConnections, killOp, logRotate, compactStructuredEncryptionData', () => {
  it('dropConnections parses each host:port', async () => {
    expect(await admin().command({ dropConnections: 1, hostAndPort: ['a.invalid:27017', '[::1]:27018', null, 'hostOnly'] })).toEqual({ ok: 1 });
    const port = await errorOf(() => admin().command({ dropConnections: 1, hostAndPort: ['h:0'] }));
    expect([port.code, port.errmsg]).toEqual([9, 'Port number 0 out of range parsing HostAndPort from "h:0"']);
    expect(await codeOf(() => admin().command({ dropConnections: 1, hostAndPort: [':1'] }))).toEqual([9, 'FailedToParse']);
    expect(await codeOf(() => admin().command({ dropConnections: 1 }))).toEqual([40414, 'IDLFailedToParse']);
    expect(await codeOf(() => admin().command({ dropConnections: 1, hostAndPort: [1] }))).toEqual([14, 'TypeMismatch']);
  });

  it('killOp reads op as a 32-bit integer', async () => {
    expect(await admin().command({ killOp: 1, op: 12345 })).toEqual({ info: 'attempting to kill op', ok: 1 });
    expect(await admin().command({ killOp: 1, op: new Double(7) })).toEqual({ info: 'attempting to kill op', ok: 1 });
    expect(await codeOf(() => admin().command({ killOp: 1 }))).toEqual([4, 'NoSuchKey']);
    expect(await codeOf(() => admin().command({ killOp: 1, op: 'x' }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ killOp: 1, op: 3.5 }))).toEqual([2, 'BadValue']);
    const wide = await errorOf(() => admin().command({ killOp: 1, op: Long.fromNumber(2 ** 31) }));
    expect([wide.code, wide.errmsg]).toEqual([26823, 'invalid op : 2147483648. Op ID cannot be represented with 32 bits']);
  });

  it('logRotate takes 1 or "server"; other names are 4', async () => {
    expect(await admin().command({ logRotate: 1 })).toEqual({ ok: 1 });
    expect(await admin().command({ logRotate: 'server' })).toEqual({ ok: 1 });
    expect(await codeOf(() => admin().command({ logRotate: 'audit' }))).toEqual([4, 'NoSuchKey']);
    expect(await codeOf(() => admin().command({ logRotate: {} }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ logRotate: 1, extra: 1 }))).toEqual([40415, 'IDLUnknownField']);
  });

  it('compactStructuredEncryptionData finds no encrypted collection', async () => {
    await h.db.collection('plain').insertOne({ _id: 1 });
    const plain = await errorOf(() => h.db.command({ compactStructuredEncryptionData: 'plain', compactionTokens: {} }));
    expect([plain.code, plain.errmsg]).toEqual([6346807, 'Target namespace is not an encrypted collection']);
    expect(await codeOf(() => h.db.command({ compactStructuredEncryptionData: 'none', compactionTokens: {} }))).toEqual([26, 'NamespaceNotFound']);
    expect(await codeOf(() => h.db.command({ compactStructuredEncryptionData: 'plain' }))).toEqual([40414, 'IDLFailedToParse']);
  });
});

describe('logComponentVerbosity', () => {
  it('sets components atomically and reads them back, the top level being logLevel', async () => {
    expect(await admin().command({ setParameter: 1, logComponentVerbosity: { command: { verbosity: 2 }, network: 3 } })).toMatchObject({ ok: 1 });
    const bad = await errorOf(() => admin().command({ setParameter: 1, logComponentVerbosity: { command: { verbosity: 4 }, nope: { verbosity: 1 } } }));
    expect([bad.code, bad.errmsg]).toEqual([2, 'Invalid component name logComponentVerbosity.nope']);
    const read = (await admin().command({ getParameter: 1, logComponentVerbosity: 1 })).logComponentVerbosity;
    expect([read.verbosity, read.command.verbosity, read.network.verbosity, read.network.asio.verbosity]).toEqual([0, 2, 3, -1]);
    await admin().command({ setParameter: 1, logComponentVerbosity: { command: { verbosity: -1 }, network: -1 } });
    expect((await admin().command({ getParameter: 1, logComponentVerbosity: 1 })).logComponentVerbosity.command.verbosity).toBe(-1);
    expect(await codeOf(() => admin().command({ setParameter: 1, logComponentVerbosity: 'abc' }))).toEqual([14, 'TypeMismatch']);
    expect(await codeOf(() => admin().command({ setParameter: 1, logComponentVerbosity: { command: { verbosity: Number.NaN } } }))).toEqual([2, 'BadValue']);
    expect(await codeOf(() => admin().command({ setParameter: 1, logLevel: 2 ** 31 }))).toEqual([2, 'BadValue']);
  });
});
