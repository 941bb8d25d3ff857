/**
 * Handshake, diagnostics, parameters, catalog and index commands through the official driver,
 * with exact replies and mongod's error codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Long, MongoClient, type CollectionInfo } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestClient } from './harness.js';
import { MayflyServer } from '../../src/index.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const admin = () => h.client.db('admin');

describe('handshake', () => {
  it('hello reports a standalone 8.0 with limits', async () => {
    const reply = await admin().command({ hello: 1 });
    expect(reply.isWritablePrimary).toBe(true);
    expect(reply.maxBsonObjectSize).toBe(16777216);
    expect(reply.maxMessageSizeBytes).toBe(48000000);
    expect(reply.maxWriteBatchSize).toBe(100000);
    expect(reply.minWireVersion).toBe(0);
    expect(reply.maxWireVersion).toBe(25);
    expect(reply.logicalSessionTimeoutMinutes).toBe(30);
    expect(reply.readOnly).toBe(false);
    expect(typeof reply.connectionId).toBe('number');
    expect(reply.localTime).toBeInstanceOf(Date);
    expect(reply.ok).toBe(1);
    expect(reply.setName).toBeUndefined();
  });

  it('isMaster and ismaster answer with ismaster: true', async () => {
    expect((await admin().command({ isMaster: 1 })).ismaster).toBe(true);
    expect((await admin().command({ ismaster: 1 })).ismaster).toBe(true);
  });

  it('each connection gets its own connectionId', async () => {
    const other = new MongoClient(h.server.getUri(), { maxPoolSize: 1 });
    await other.connect();
    const a = await admin().command({ hello: 1 });
    const b = await other.db('admin').command({ hello: 1 });
    expect(a.connectionId).not.toBe(b.connectionId);
    await other.close();
  });

  it('negotiates zlib compression and works through it', async () => {
    const client: TestClient = new MongoClient(h.server.getUri(), { compressors: ['zlib'], zlibCompressionLevel: 6 });
    await client.connect();
    const coll = client.db('compress').collection('c');
    await coll.insertOne({ _id: 1, text: 'x'.repeat(10000) });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, text: 'x'.repeat(10000) });
    const reply = await client.db('admin').command({ hello: 1, compression: ['snappy', 'zlib'] });
    expect(reply.compression).toEqual(['zlib']);
    await client.db('compress').dropDatabase();
    await client.close();
  });
});

describe('diagnostics', () => {
  it('ping', async () => {
    expect(await admin().command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('buildInfo reports version 8.0.0', async () => {
    const reply = await admin().command({ buildInfo: 1 });
    expect(reply.version).toBe('8.0.0');
    expect(reply.versionArray).toEqual([8, 0, 0, 0]);
    expect(reply.bits).toBe(64);
    expect(reply.maxBsonObjectSize).toBe(16777216);
  });

  it('hostInfo, connectionStatus, whatsmyuri, getCmdLineOpts', async () => {
    const host = await admin().command({ hostInfo: 1 });
    expect(host.system.cpuAddrSize).toBe(64);
    expect(typeof host.os.type).toBe('string');
    const status = await admin().command({ connectionStatus: 1 });
    expect(status).toEqual({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, uuid: status.uuid, ok: 1 });
    expect(status.uuid.sub_type).toBe(4);
    const me = await admin().command({ whatsmyuri: 1 });
    expect(me.you).toMatch(/^127\.0\.0\.1:\d+$/);
    const opts = await admin().command({ getCmdLineOpts: 1 });
    expect(Array.isArray(opts.argv)).toBe(true);
    expect(opts.parsed.net.bindIp).toBe('127.0.0.1');
  });

  it('serverStatus counts operations and reports TTL metrics as Int64', async () => {
    const db = h.client.db('status_db');
    const before = await admin().command({ serverStatus: 1 }, { promoteLongs: false });
    await db.collection('c').insertMany([{ a: 1 }, { a: 2 }]);
    await db.collection('c').find({}).toArray();
    const after = await admin().command({ serverStatus: 1 }, { promoteLongs: false });
    expect(after.opcounters.insert.toNumber() - before.opcounters.insert.toNumber()).toBe(2);
    expect(after.opcounters.query.toNumber() - before.opcounters.query.toNumber()).toBe(1);
    expect(after.connections.current).toBeGreaterThanOrEqual(1);
    expect(after.metrics.ttl.deletedDocuments).toBeInstanceOf(Long);
    expect(after.metrics.ttl.passes).toBeInstanceOf(Long);
    expect(after.metrics.ttl.subPasses).toBeInstanceOf(Long);
    expect(after.metrics.ttl.invalidTTLIndexSkips).toBeInstanceOf(Long);
    await db.dropDatabase();
  });

  it('listCommands lists implemented commands with help', async () => {
    const reply = await admin().command({ listCommands: 1 });
    expect(reply.commands.find.help).toBe('query for documents');
    expect(reply.commands.insert.adminOnly).toBe(false);
    expect(reply.commands.listDatabases.adminOnly).toBe(true);
  });

  it('getLog lists logs, returns global lines and startup warnings', async () => {
    expect(await admin().command({ getLog: '*' })).toEqual({ names: ['global', 'startupWarnings'], ok: 1 });
    expect(await admin().command({ getLog: 'startupWarnings' })).toEqual({ totalLinesWritten: 0, log: [], ok: 1 });
    const global = await admin().command({ getLog: 'global' });
    expect(global.log.some((line: string) => line.includes('Waiting for connections'))).toBe(true);
  });

  it('endSessions accepts session ids', async () => {
    expect(await admin().command({ endSessions: [] })).toEqual({ ok: 1 });
  });
});

describe('errors', () => {
  it('an unknown command is 59 CommandNotFound', async () => {
    const err = await errorOf(() => h.db.command({ noSuchCommand: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([59, 'CommandNotFound', "no such command: 'noSuchCommand'"]);
  });

  it('a known but unimplemented command is 238 NotImplemented', async () => {
    const err = await errorOf(() => admin().command({ mapReduce: 'c' }));
    expect([err.code, err.codeName]).toEqual([238, 'NotImplemented']);
    expect(err.errmsg).toBe("The 'mapReduce' command is not implemented by Mayfly yet");
  });

  it('an unknown field is 40415 IDLUnknownField', async () => {
    const err = await errorOf(() => h.db.command({ insert: 'c', documents: [{}], bogus: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([40415, 'IDLUnknownField', "BSON field 'insert.bogus' is an unknown field."]);
  });

  it('a field of the wrong type is 14 TypeMismatch', async () => {
    const err = await errorOf(() => h.db.command({ count: 'c', skip: 'x' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      14,
      'TypeMismatch',
      "BSON field 'count.skip' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ]);
  });

  it('a missing required field is 40414', async () => {
    const err = await errorOf(() => h.db.command({ insert: 'c' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([40414, 'IDLFailedToParse', "BSON field 'insert.documents' is missing but a required field"]);
  });

  it('admin-only commands elsewhere are 13 Unauthorized', async () => {
    const err = await errorOf(() => h.db.command({ listDatabases: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([13, 'Unauthorized', 'listDatabases may only be run against the admin database.']);
  });

  it('transactions on a standalone are 20 IllegalOperation', async () => {
    const err = await errorOf(() => h.db.command({ find: 'c', txnNumber: Long.fromNumber(1) }));
    expect([err.code, err.codeName]).toEqual([20, 'IllegalOperation']);
  });
});

describe('parameters', () => {
  it('getParameter: one, several, * and showDetails', async () => {
    expect(await admin().command({ getParameter: 1, featureCompatibilityVersion: 1 })).toEqual({
      featureCompatibilityVersion: { version: '8.2' },
      ok: 1,
    });
    const all = await admin().command({ getParameter: '*' });
    expect(all.cursorTimeoutMillis).toBe(600000);
    expect(all.featureCompatibilityVersion).toEqual({ version: '8.2' });
    const details = await admin().command({ getParameter: { showDetails: true }, cursorTimeoutMillis: 1 });
    expect(details.cursorTimeoutMillis).toEqual({ value: 600000, settableAtRuntime: true, settableAtStartup: true });
  });

  it('getParameter of an unknown name is 72', async () => {
    const err = await errorOf(() => admin().command({ getParameter: 1, noSuchParameter: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([72, 'InvalidOptions', 'no option found to get']);
  });

  it('setParameter returns was and changes the value', async () => {
    expect(await admin().command({ setParameter: 1, cursorTimeoutMillis: 5000 })).toEqual({ was: 600000, ok: 1 });
    expect((await admin().command({ getParameter: 1, cursorTimeoutMillis: 1 })).cursorTimeoutMillis).toBe(5000);
    expect(await admin().command({ setParameter: 1, cursorTimeoutMillis: 600000 })).toEqual({ was: 5000, ok: 1 });
  });

  it('setParameter errors: unknown 72, startup-only 20, none 72, outside admin 13', async () => {
    let err = await errorOf(() => admin().command({ setParameter: 1, nope: 1 }));
    expect([err.code, err.errmsg]).toEqual([72, 'attempted to set unrecognized parameter [nope], use help:true to see options ']);
    err = await errorOf(() => admin().command({ setParameter: 1, featureCompatibilityVersion: '7.0' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([20, 'IllegalOperation', 'not allowed to change [featureCompatibilityVersion] at runtime']);
    err = await errorOf(() => admin().command({ setParameter: 1 }));
    expect([err.code, err.errmsg]).toEqual([72, 'no option found to set, use help:true to see options ']);
    err = await errorOf(() => h.db.command({ setParameter: 1, cursorTimeoutMillis: 1 }));
    expect([err.code, err.errmsg]).toEqual([13, 'setParameter may only be run against the admin database.']);
  });
});

describe('catalog', () => {
  it('create, listCollections (filter, nameOnly, batches), drop', async () => {
    const db = h.client.db('catalog_db');
    await db.createCollection('b');
    await db.createCollection('a');
    await db.createCollection('c');
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['a', 'b', 'c']);
    const full = await db.listCollections<CollectionInfo>({ name: 'a' }).toArray();
    expect(full).toHaveLength(1);
    expect(full[0]!.type).toBe('collection');
    expect(full[0]!.options).toEqual({});
    expect(full[0]!.idIndex).toEqual({ v: 2, key: { _id: 1 }, name: '_id_' });
    expect(full[0]!.info!.readOnly).toBe(false);
    const raw = await db.command({ listCollections: 1, nameOnly: true, cursor: { batchSize: 1 } }, { promoteLongs: false });
    expect(raw.cursor.firstBatch).toHaveLength(1);
    expect(raw.cursor.ns).toBe('catalog_db.$cmd.listCollections');
    const more = await db.command({ getMore: raw.cursor.id, collection: '$cmd.listCollections' }, { promoteLongs: false });
    expect(more.cursor.nextBatch).toHaveLength(2);
    expect(more.cursor.id).toEqual(Long.ZERO);
    expect(await db.command({ drop: 'a' })).toEqual({ nIndexesWas: 1, ns: 'catalog_db.a', ok: 1 });
    expect(await db.command({ drop: 'a' })).toEqual({ ok: 1 });
    await db.dropDatabase();
  });

  it('create of an existing collection: same options ok, other options 48', async () => {
    const db = h.client.db('catalog_exists');
    await db.command({ create: 'x' });
    expect(await db.command({ create: 'x' })).toEqual({ ok: 1 });
    const err = await errorOf(() => db.command({ create: 'x', collation: { locale: 'fr' } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([48, 'NamespaceExists', 'Collection catalog_exists.x already exists.']);
    await db.dropDatabase();
  });

  it('invalid namespaces are 73 InvalidNamespace', async () => {
    const db = h.client.db('ns_db');
    let err = await errorOf(() => db.command({ create: 'a$b' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([73, 'InvalidNamespace', 'Invalid collection name: a$b']);
    err = await errorOf(() => db.command({ create: 'system.foo' }));
    expect([err.code, err.errmsg]).toEqual([73, 'Invalid system namespace: ns_db.system.foo']);
    err = await errorOf(() => db.command({ create: '' }));
    expect([err.code, err.errmsg]).toEqual([73, "Invalid namespace specified 'ns_db.'"]);
    err = await errorOf(() => db.command({ insert: 'a\0b', documents: [{}] }));
    expect([err.code, err.errmsg]).toEqual([73, 'namespaces cannot have embedded null characters']);
    err = await errorOf(() => db.command({ create: 'x'.repeat(260) }));
    expect(err.code).toBe(73);
    expect(err.errmsg).toBe(`Fully qualified namespace is too long. Namespace: ns_db.${'x'.repeat(260)} Max: 255`);
  });

  it('listDatabases with sizes, nameOnly and filter; dropDatabase', async () => {
    await h.client.db('ldb_one').collection('c').insertOne({ a: 1 });
    await h.client.db('ldb_two').collection('c').insertOne({ a: 1 });
    const reply = await admin().command({ listDatabases: 1 }, { promoteLongs: false });
    const one = reply.databases.find((d: { name: string }) => d.name === 'ldb_one');
    expect(one.sizeOnDisk).toBeInstanceOf(Long);
    expect(one.sizeOnDisk.toNumber()).toBeGreaterThan(0);
    expect(one.empty).toBe(false);
    expect(reply.totalSize).toBeInstanceOf(Long);
    const named = await admin().command({ listDatabases: 1, nameOnly: true, filter: { name: /^ldb_/ } });
    expect(named.databases).toEqual([{ name: 'ldb_one' }, { name: 'ldb_two' }]);
    expect(named.totalSize).toBeUndefined();
    expect(await h.client.db('ldb_one').command({ dropDatabase: 1 })).toEqual({ ok: 1 });
    const after = await admin().command({ listDatabases: 1, nameOnly: true, filter: { name: /^ldb_/ } });
    expect(after.databases).toEqual([{ name: 'ldb_two' }]);
    await h.client.db('ldb_two').dropDatabase();
  });

  it('renameCollection moves documents and indexes; its errors', async () => {
    const db = h.client.db('rename_db');
    await db.collection('src').insertMany([{ _id: 1 }, { _id: 2 }]);
    await db.collection('src').createIndex({ a: 1 });
    await db.collection('other').insertOne({ _id: 9 });
    await admin().command({ renameCollection: 'rename_db.src', to: 'rename_db.dst' });
    expect(await db.collection('dst').find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect((await db.collection('dst').indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
    let err = await errorOf(() => admin().command({ renameCollection: 'rename_db.src', to: 'rename_db.x' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([26, 'NamespaceNotFound', 'Source collection rename_db.src does not exist']);
    err = await errorOf(() => admin().command({ renameCollection: 'rename_db.dst', to: 'rename_db.other' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([48, 'NamespaceExists', 'target namespace exists']);
    await admin().command({ renameCollection: 'rename_db.dst', to: 'rename_db.other', dropTarget: true });
    expect(await db.collection('other').countDocuments()).toBe(2);
    await admin().command({ renameCollection: 'rename_db.other', to: 'rename_db2.moved' });
    expect(await h.client.db('rename_db2').collection('moved').countDocuments()).toBe(2);
    await db.dropDatabase();
    await h.client.db('rename_db2').dropDatabase();
  });

  it('collStats and dbStats count documents and sizes', async () => {
    const db = h.client.db('stats_db');
    await db.collection('c').insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
    const cs = await db.command({ collStats: 'c' });
    expect(cs.ns).toBe('stats_db.c');
    expect(cs.count).toBe(3);
    expect(cs.size).toBeGreaterThan(0);
    expect(cs.nindexes).toBe(1);
    const err = await errorOf(() => db.command({ collStats: 'missing' }));
    expect([err.code, err.errmsg]).toEqual([26, 'Collection [stats_db.missing] not found.']);
    const ds = await db.command({ dbStats: 1 });
    expect(ds.db).toBe('stats_db');
    expect(ds.collections).toBe(1);
    expect(ds.objects).toBe(3);
    expect(ds.indexes).toBe(1);
    await db.dropDatabase();
  });
});

describe('indexes', () => {
  it('createIndexes, listIndexes, unique enforcement, dropIndexes', async () => {
    const coll = h.db.collection('idx');
    // The default --compat mongodb answers as mongod (no `_t`; cosmos mode's is in cosmos_replies.test.ts).
    const created = await h.db.command({ createIndexes: 'idx', indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }] });
    expect(created).toEqual({ ok: 1, createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2 });
    expect('_t' in created).toBe(false);
    const again = await h.db.command({ createIndexes: 'idx', indexes: [{ key: { email: 1 }, name: 'email_1', unique: true }] });
    expect(again).toEqual({ ok: 1, numIndexesBefore: 2, numIndexesAfter: 2, note: 'all indexes already exist' });
    expect(await coll.indexes()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { email: 1 }, name: 'email_1', unique: true },
    ]);
    await coll.insertOne({ _id: 1, email: 'a@x' });
    const err = await errorOf(() => coll.insertOne({ _id: 2, email: 'a@x' }));
    expect(err.code).toBe(11000);
    expect(err.errmsg).toBe('E11000 duplicate key error collection: ' + h.db.databaseName + '.idx index: email_1 dup key: { email: "a@x" }');
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@x' });
    await coll.updateOne({ _id: 1 }, { $set: { email: 'b@x' } });
    await coll.insertOne({ _id: 2, email: 'a@x' });
    expect(await h.db.command({ dropIndexes: 'idx', index: 'email_1' })).toEqual({ nIndexesWas: 2, ok: 1 });
    await coll.insertOne({ _id: 3, email: 'a@x' });
  });

  it('building a unique index over duplicates fails and leaves no index', async () => {
    const coll = h.db.collection('idx_dups');
    await coll.insertMany([{ a: 1 }, { a: 1 }]);
    const err = await errorOf(() => coll.createIndex({ a: 1 }, { unique: true }));
    expect(err.code).toBe(11000);
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('index errors: conflicts 85/86, _id 72, not found 27, ns 26', async () => {
    const coll = h.db.collection('idx_err');
    await coll.createIndex({ a: 1 });
    let err = await errorOf(() => coll.createIndex({ a: 1 }, { name: 'other' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([85, 'IndexOptionsConflict', 'Index already exists with a different name: a_1']);
    err = await errorOf(() => coll.createIndex({ b: 1 }, { name: 'a_1' }));
    expect([err.code, err.codeName]).toEqual([86, 'IndexKeySpecsConflict']);
    err = await errorOf(() => h.db.command({ dropIndexes: 'idx_err', index: '_id_' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([72, 'InvalidOptions', 'cannot drop _id index']);
    err = await errorOf(() => h.db.command({ dropIndexes: 'idx_err', index: 'nope' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([27, 'IndexNotFound', 'index not found with name [nope]']);
    err = await errorOf(() => h.db.command({ dropIndexes: 'idx_err', index: { z: 1 } }));
    expect([err.code, err.errmsg]).toEqual([27, "can't find index with key: { z: 1 }"]);
    err = await errorOf(() => h.db.command({ dropIndexes: 'no_such_coll', index: '*' }));
    expect([err.code, err.errmsg]).toEqual([26, `ns not found ${h.db.databaseName}.no_such_coll`]);
    err = await errorOf(() => h.db.command({ listIndexes: 'no_such_coll' }));
    expect([err.code, err.errmsg]).toEqual([26, `ns does not exist: ${h.db.databaseName}.no_such_coll`]);
    err = await errorOf(() => coll.createIndex({ c: 0 }));
    expect(err.code).toBe(67);
    expect(await h.db.command({ dropIndexes: 'idx_err', index: { a: 1 } })).toEqual({ nIndexesWas: 2, ok: 1 });
    await coll.createIndex({ x: 1 });
    await coll.createIndex({ y: -1 });
    expect(await h.db.command({ dropIndexes: 'idx_err', index: '*' })).toEqual({
      nIndexesWas: 3,
      msg: 'non-_id indexes dropped for collection',
      ok: 1,
    });
  });

  it('compound unique indexes treat a missing field as null', async () => {
    const coll = h.db.collection('idx_compound');
    await coll.createIndex({ a: 1, b: 1 }, { unique: true });
    await coll.insertOne({ a: 1 });
    const err = await errorOf(() => coll.insertOne({ a: 1, b: null }));
    expect(err.errmsg).toBe(`E11000 duplicate key error collection: ${h.db.databaseName}.idx_compound index: a_1_b_1 dup key: { a: 1, b: null }`);
    await coll.insertOne({ a: 1, b: 2 });
  });
});

describe('isolation', () => {
  it('two servers in one process share no state', async () => {
    const other = await MayflyServer.create();
    const client = new MongoClient(other.getUri());
    await client.connect();
    await h.client.db('iso').collection('c').insertOne({ a: 1 });
    expect(await client.db('iso').collection('c').countDocuments()).toBe(0);
    expect(other.getUri()).not.toBe(h.server.getUri());
    await client.close();
    await other.stop();
    await h.client.db('iso').dropDatabase();
  });

  it('a double stays a double and an Int64 stays an Int64', async () => {
    const coll = h.db.collection('types');
    await coll.insertOne({ _id: 1, d: new Double(1), l: Long.fromNumber(5), i: 7, f: 2.5 });
    const doc = await coll.findOne({ _id: 1 }, { promoteValues: false });
    expect(doc!.d).toBeInstanceOf(Double);
    expect(doc!.l).toBeInstanceOf(Long);
    expect(doc!.i._bsontype).toBe('Int32');
    expect(doc!.f).toBeInstanceOf(Double);
  });
});
