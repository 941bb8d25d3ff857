/**
 * The collection commands through the official driver, as mongod 8.2 answers them: compact,
 * validateDBMetadata, drop and dropDatabase, renameCollection's UUID and namespace rules,
 * listDatabases' server databases and filters, create's idIndex and storageEngine checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, Long, UUID, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
});
afterAll(async () => {
  await h.close();
});

async function code(command: Document, on: TestDb = db): Promise<[number | undefined, string | undefined]> {
  const err = await errorOf(() => on.command(command));
  return [err.code, err.errmsg];
}

async function uuidOf(name: string): Promise<Binary> {
  const reply = await db.command({ listCollections: 1, filter: { name } });
  return reply.cursor.firstBatch[0].info.uuid as Binary;
}

describe('compact', () => {
  it('frees nothing and says so; a dry run estimates nothing', async () => {
    await db.collection('cmp').insertOne({ _id: 1 });
    expect(await db.command({ compact: 'cmp' })).toEqual({ bytesFreed: 0, ok: 1 });
    expect(await db.command({ compact: 'cmp', dryRun: true, force: true, freeSpaceTargetMB: 1 })).toEqual({ estimatedBytesFreed: 0, ok: 1 });
  });

  it('checks its arguments and its target', async () => {
    await db.createCollection('cmpv_src');
    await db.command({ create: 'cmpv', viewOn: 'cmpv_src', pipeline: [] });
    expect(await code({ compact: 'cmp', freeSpaceTargetMB: 0 })).toEqual([2, "BSON field 'freeSpaceTargetMB' value must be >= 1, actual value '0'"]);
    expect(await code({ compact: 'cmp', dryRun: 1 })).toEqual([14, "BSON field 'compact.dryRun' is the wrong type 'int', expected type 'bool'"]);
    expect(await code({ compact: 'cmp', writeConcern: { w: 1 } })).toEqual([72, 'Command does not support writeConcern']);
    expect(await code({ compact: 'cmp', unknownField: 1 })).toEqual([40415, "BSON field 'compact.unknownField' is an unknown field."]);
    expect(await code({ compact: 'nope' })).toEqual([26, 'collection does not exist']);
    expect(await code({ compact: 'cmpv' })).toEqual([166, "can't compact a view"]);
    expect(await code({ compact: 5 })).toEqual([73, 'collection name has invalid type int']);
  });
});

describe('validateDBMetadata', () => {
  it('reports the indexes API version 1 does not allow, under strict', async () => {
    await db.collection('vdm').createIndex({ t: 'text' }, { name: 't_text' });
    await db.collection('vdm').createIndex({ s: 1 }, { name: 's_sparse', sparse: true });
    await db.collection('vdm').createIndex({ h: 'hashed' }, { name: 'h_hashed' });
    const ns = `${db.databaseName}.vdm`;
    const reply = await h.client.db('admin').command({ validateDBMetadata: 1, db: db.databaseName, collection: 'vdm', apiParameters: { version: '1', strict: true } });
    expect(reply).toEqual({
      apiVersionErrors: [
        { ns, code: 323, codeName: 'APIStrictError', errmsg: 'The index with name t_text is not allowed in API version 1.' },
        { ns, code: 323, codeName: 'APIStrictError', errmsg: 'The index with name s_sparse is not allowed in API version 1.' },
      ],
      ok: 1,
    });
    const lax = await h.client.db('admin').command({ validateDBMetadata: 1, db: db.databaseName, apiParameters: { version: '1', strict: false } });
    expect(lax).toEqual({ apiVersionErrors: [], ok: 1 });
  });

  it('checks its arguments', async () => {
    const admin = h.client.db('admin') as TestDb;
    expect(await code({ validateDBMetadata: 1 }, admin)).toEqual([40414, "BSON field 'validateDBMetadata.apiParameters' is missing but a required field"]);
    expect(await code({ validateDBMetadata: 1, apiParameters: { strict: true } }, admin)).toEqual([
      40414,
      "BSON field 'validateDBMetadata.apiParameters.version' is missing but a required field",
    ]);
    expect(await code({ validateDBMetadata: 1, apiParameters: { version: '1', Strict: true } }, admin)).toEqual([
      40415,
      "BSON field 'validateDBMetadata.apiParameters.Strict' is an unknown field.",
    ]);
    expect(await code({ validateDBMetadata: 1, apiParameters: { version: '1' }, db: '' }, admin)).toEqual([28539, 'Invalid empty database name']);
    expect(await code({ validateDBMetadata: 1, apiParameters: { version: '1' }, db: 'a b' }, admin)).toEqual([13280, 'invalid db name: a b']);
    expect(await code({ validateDBMetadata: 1, apiParameters: { version: '1' }, collection: '.x' }, admin)).toEqual([73, "Invalid namespace specified 'admin..x'"]);
  });
});

describe('drop and dropDatabase', () => {
  it('drop refuses a name mongod cannot form (73)', async () => {
    expect(await code({ drop: null })).toEqual([73, 'collection name has invalid type null']);
    expect(await code({ drop: '.x' })).toEqual([73, `Invalid namespace specified '${db.databaseName}..x'`]);
  });

  it('dropDatabase takes 1, answers { ok: 1 }, and refuses admin', async () => {
    const other = h.client.db('dropdb_one') as TestDb;
    await other.collection('c').insertOne({ _id: 1 });
    expect(await other.command({ dropDatabase: 1 })).toEqual({ ok: 1 });
    expect(await other.command({ dropDatabase: 1.9 })).toEqual({ ok: 1 });
    expect(await code({ dropDatabase: 2 }, other)).toEqual([5255100, 'have to pass 1 as db parameter']);
    expect(await code({ dropDatabase: true }, other)).toEqual([14, "BSON field 'dropDatabase.dropDatabase' is the wrong type 'bool', expected types '[long, int, decimal, double']"]);
    expect(await code({ dropDatabase: 1, writeConcern: { w: 2 } }, other)).toEqual([2, "cannot use 'w' > 1 when a host is not replicated"]);
    expect(await code({ dropDatabase: 1 }, h.client.db('admin') as TestDb)).toEqual([20, "Dropping the 'admin' database is prohibited."]);
  });
});

describe('renameCollection', () => {
  const admin = (): TestDb => h.client.db('admin') as TestDb;

  it('with collectionUUID and a UUID dropTarget: the UUIDs must match (361)', async () => {
    await db.collection('ren_a').insertOne({ _id: 1 });
    await db.collection('ren_b').insertOne({ _id: 2 });
    const ns = (n: string) => `${db.databaseName}.${n}`;
    const wrong = new UUID();
    const mismatch = await errorOf(() => admin().command({ renameCollection: ns('ren_a'), to: ns('ren_c'), collectionUUID: wrong }));
    expect([mismatch.code, mismatch.errmsg, mismatch.expectedCollection, mismatch.actualCollection]).toEqual([361, 'Collection UUID does not match that specified', 'ren_a', 'ren_a']);
    expect(await admin().command({ renameCollection: ns('ren_a'), to: ns('ren_b'), dropTarget: await uuidOf('ren_b'), collectionUUID: await uuidOf('ren_a') })).toEqual({ ok: 1 });
    expect(await db.collection('ren_b').find().toArray()).toEqual([{ _id: 1 }]);
    expect(await code({ renameCollection: ns('ren_b'), to: ns('ren_d'), dropTarget: new Binary(Buffer.alloc(16), 3) }, admin())).toEqual([
      207,
      'uuid must be a 16-byte binary field with UUID (4) subtype',
    ]);
    expect(await code({ renameCollection: ns('ren_b'), to: `${db.databaseName}_x.ren_d`, dropTarget: wrong }, admin())).toEqual([
      72,
      'Cannot provide an expected target collection UUID when renaming between databases',
    ]);
    expect(await code({ renameCollection: ns('ren_b'), to: ns('ren_d'), dropTarget: 1 }, admin())).toEqual([
      14,
      "BSON field 'renameCollection.dropTarget' is the wrong type 'int', expected types '[bool, binData']",
    ]);
  });

  it('namespaces: 73 for one mongod cannot form, 20 for one a client may not write, 13297 for a database differing in case', async () => {
    await db.collection('ren_n').insertOne({ _id: 1 });
    const from = `${db.databaseName}.ren_n`;
    expect(await code({ renameCollection: `a b.c`, to: from }, admin())).toEqual([73, 'Invalid source namespace: a b.c']);
    expect(await code({ renameCollection: from, to: `${db.databaseName}.system.js` }, admin())).toEqual([
      20,
      `error with target namespace: Invalid system namespace: ${db.databaseName}.system.js`,
    ]);
    expect(await code({ renameCollection: from, to: 'local.oplog.rs' }, admin())).toEqual([20, "can't rename to live oplog while replicating"]);
    expect(await code({ renameCollection: from, to: `${db.databaseName.toUpperCase()}.x` }, admin())).toEqual([
      13297,
      `db already exists with different case already have: [${db.databaseName}] trying to create [${db.databaseName.toUpperCase()}]`,
    ]);
    expect(await code({ renameCollection: null, to: from }, admin())).toEqual([40414, "BSON field 'renameCollection.renameCollection' is missing but a required field"]);
  });
});

describe('listDatabases', () => {
  it('always lists admin, config and local, and refuses $where and the near operators in its filter', async () => {
    const names = (await h.client.db('admin').command({ listDatabases: 1, nameOnly: Long.fromNumber(5) })).databases.map((d: Document) => d.name);
    expect(names.filter((n: string) => ['admin', 'config', 'local'].includes(n))).toEqual(['admin', 'config', 'local']);
    const sized = await h.client.db('admin').command({ listDatabases: 1, filter: { name: 'admin' } }, { promoteLongs: false });
    expect(sized.databases).toEqual([{ name: 'admin', sizeOnDisk: Long.fromNumber(8192), empty: false }]);
    const admin = h.client.db('admin') as TestDb;
    expect(await code({ listDatabases: 1, filter: { $where: 'true' } }, admin)).toEqual([2, '$where is not allowed in this context']);
    expect((await code({ listDatabases: 1, filter: { name: { $near: [0, 0] } } }, admin))[0]).toBe(5626500);
    expect(await code({ listDatabases: 1, readConcern: { level: 'majority' } }, admin)).toEqual([
      72,
      'Command listDatabases does not support { readConcern: { level: "majority", provenance: "clientSupplied" } } :: caused by :: read concern majority not supported',
    ]);
  });
});

describe('create', () => {
  it('idIndex: a valid _id index of key { _id: 1 }, not with viewOn', async () => {
    expect(await db.command({ create: 'idi_ok', idIndex: { key: { _id: 1 }, name: '_id_' } })).toEqual({ ok: 1 });
    expect(await code({ create: 'idi', idIndex: { key: { x: 1 }, name: '_id_' } })).toEqual([2, "The field 'key' for an _id index must be {_id: 1}, but got { x: 1 }"]);
    expect((await code({ create: 'idi', idIndex: { key: { _id: 1 } } }))[0]).toBe(9);
    expect((await code({ create: 'idi', idIndex: { key: { _id: 1 }, name: '_id_', unique: true } }))[0]).toBe(197);
    expect(await code({ create: 'idi', viewOn: 'x', pipeline: [], idIndex: { key: { _id: 1 }, name: '_id_' } })).toEqual([72, "'idIndex' is not allowed with 'viewOn'"]);
    expect(await code({ create: 'idi', idIndex: { key: { _id: 1 }, name: '_id_', collation: { locale: 'en' } } })).toEqual([
      2,
      "'idIndex' must have the same collation as the collection.",
    ]);
  });

  it('storageEngine and indexOptionDefaults', async () => {
    expect(await db.command({ create: 'se_ok', storageEngine: { wiredTiger: { configString: 'block_compressor=zstd' } } })).toEqual({ ok: 1 });
    expect(await code({ create: 'se', storageEngine: { unknownEngine: {} } })).toEqual([72, 'unknown storage engine: unknownEngine']);
    expect(await code({ create: 'se', storageEngine: { wiredTiger: 'x' } })).toEqual([2, "'storageEngine.wiredTiger' has to be an embedded document."]);
    expect(await code({ create: 'se', storageEngine: { wiredTiger: { configString: 'invalid=bad' } } })).toEqual([2, "unknown configuration key 'invalid'"]);
    expect(await code({ create: 'se', indexOptionDefaults: { other: 1 } })).toEqual([40415, "BSON field 'create.indexOptionDefaults.other' is an unknown field."]);
  });
});
