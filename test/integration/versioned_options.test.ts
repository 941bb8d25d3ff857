/**
 * Versioned collections, their options (TTL.md "Versioned collections"): `create` with
 * `versioned: { maxVersions, timeToLive, maxTimeDeviation }` (defaults 1, -1, 86400; Tablestore's
 * rules with clear errors), `collMod` changing any of them, `listCollections` showing them, and
 * what a versioned collection refuses (secondary indexes) or keeps (its versions across a rename).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Double, Int32, Long, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { rawCommand } from './ttl_helpers.js';
import { createVersioned, getRow, putRow, version } from './versioned_helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock: 'manual' });
});
afterAll(async () => {
  await h.close();
});

/** The `options` listCollections shows for `name`, BSON types kept. */
async function rawOptions(name: string): Promise<Document | undefined> {
  const reply = await rawCommand(h.db, { listCollections: 1, filter: { name } });
  return (reply.cursor.firstBatch as Document[])[0]?.options as Document | undefined;
}

const TTL_RULE = 'versioned.timeToLive must be -1 (versions never expire) or an integer number of seconds from 86400 to 2147483647, but received';
const MAX_VERSIONS_RULE = 'versioned.maxVersions must be an integer from 1 to 2147483647, but received';
const DEVIATION_RULE = 'versioned.maxTimeDeviation must be an integer number of seconds from 1 to 2147483647, but received';

describe('create', () => {
  test("an empty versioned document gets Tablestore's defaults, shown by listCollections as Int32", async () => {
    await h.db.createCollection('defaults', { versioned: {} } as Document);
    expect(await rawOptions('defaults')).toEqual({ versioned: { maxVersions: new Int32(1), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) } });
  });

  test('given values are stored in a fixed order, any integral numeric type accepted', async () => {
    await h.db.command({ create: 'given', versioned: { maxTimeDeviation: Long.fromNumber(3600), timeToLive: new Double(86400), maxVersions: 5 } });
    const options = await rawOptions('given');
    expect(options).toEqual({ versioned: { maxVersions: new Int32(5), timeToLive: new Int32(86400), maxTimeDeviation: new Int32(3600) } });
    expect(Object.keys(options!.versioned as Document)).toEqual(['maxVersions', 'timeToLive', 'maxTimeDeviation']);
  });

  test('creating it again with the same options is a no-op; other options are 48 NamespaceExists', async () => {
    await createVersioned(h.db, 'again', { maxVersions: 2 });
    expect(await h.db.command({ create: 'again', versioned: { maxVersions: 2 } })).toEqual({ ok: 1 });
    expect(await h.db.command({ create: 'again', versioned: { maxVersions: 2, timeToLive: -1, maxTimeDeviation: 86400 } })).toEqual({ ok: 1 });
    const err = await errorOf(() => h.db.command({ create: 'again', versioned: { maxVersions: 3 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([48, 'NamespaceExists', `Collection ${h.db.databaseName}.again already exists.`]);
  });

  test.each([
    [{ maxVersions: 0 }, `${MAX_VERSIONS_RULE} 0`],
    [{ maxVersions: -3 }, `${MAX_VERSIONS_RULE} -3`],
    [{ maxVersions: 2.5 }, `${MAX_VERSIONS_RULE} 2.5`],
    [{ timeToLive: 0 }, `${TTL_RULE} 0`],
    [{ timeToLive: 3600 }, `${TTL_RULE} 3600`],
    [{ timeToLive: 86399 }, `${TTL_RULE} 86399`],
    [{ timeToLive: -2 }, `${TTL_RULE} -2`],
    [{ timeToLive: Long.fromString('2147483648') }, `${TTL_RULE} 2147483648`],
    [{ maxTimeDeviation: 0 }, `${DEVIATION_RULE} 0`],
    [{ maxTimeDeviation: -1 }, `${DEVIATION_RULE} -1`],
    [{ maxTimeDeviation: 0.5 }, `${DEVIATION_RULE} 0.5`],
  ])('%o is 2 BadValue and creates nothing', async (versioned, message) => {
    const err = await errorOf(() => h.db.command({ create: 'bad', versioned }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([2, 'BadValue', message]);
    expect(await rawOptions('bad')).toBe(undefined);
  });

  test('the boundary values are accepted: timeToLive 86400, maxVersions 1, maxTimeDeviation 1', async () => {
    await createVersioned(h.db, 'bounds', { maxVersions: 1, timeToLive: 86400, maxTimeDeviation: 1 });
    expect(await rawOptions('bounds')).toEqual({ versioned: { maxVersions: new Int32(1), timeToLive: new Int32(86400), maxTimeDeviation: new Int32(1) } });
  });

  test('an unknown field is 40415, a non-number 14, a non-document 14', async () => {
    let err = await errorOf(() => h.db.command({ create: 'bad', versioned: { maxVersion: 2 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([40415, 'IDLUnknownField', "BSON field 'create.versioned.maxVersion' is an unknown field."]);
    err = await errorOf(() => h.db.command({ create: 'bad', versioned: { timeToLive: '86400' } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      14,
      'TypeMismatch',
      "BSON field 'create.versioned.timeToLive' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ]);
    err = await errorOf(() => h.db.command({ create: 'bad', versioned: true }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([14, 'TypeMismatch', "BSON field 'create.versioned' is the wrong type 'bool', expected type 'object'"]);
    expect(await rawOptions('bad')).toBe(undefined);
  });
});

describe('collMod', () => {
  test('changes the fields given, keeps the others, replies versioned_old and versioned_new', async () => {
    await createVersioned(h.db, 'mod');
    const reply = await rawCommand(h.db, { collMod: 'mod', versioned: { maxVersions: 5 } });
    expect(reply).toEqual({
      versioned_old: { maxVersions: new Int32(1), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) },
      versioned_new: { maxVersions: new Int32(5), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) },
      ok: new Double(1),
    });
    await h.db.command({ collMod: 'mod', versioned: { timeToLive: 86400, maxTimeDeviation: 600 } });
    expect(await rawOptions('mod')).toEqual({ versioned: { maxVersions: new Int32(5), timeToLive: new Int32(86400), maxTimeDeviation: new Int32(600) } });
    await h.db.command({ collMod: 'mod', versioned: { timeToLive: -1 } });
    expect(await rawOptions('mod')).toEqual({ versioned: { maxVersions: new Int32(5), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(600) } });
  });

  test("the seed's Java example: timeToLive -1, maxVersions 5, maxTimeDeviation 86400", async () => {
    await createVersioned(h.db, 'java', { timeToLive: 86400, maxVersions: 1, maxTimeDeviation: 60 });
    await h.db.command({ collMod: 'java', versioned: { timeToLive: -1, maxVersions: 5, maxTimeDeviation: 86400 } });
    expect(await rawOptions('java')).toEqual({ versioned: { maxVersions: new Int32(5), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) } });
  });

  test('bad values fail with the create rules and change nothing', async () => {
    await createVersioned(h.db, 'modbad', { maxVersions: 2 });
    let err = await errorOf(() => h.db.command({ collMod: 'modbad', versioned: { maxVersions: 3, timeToLive: 100 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([2, 'BadValue', `${TTL_RULE} 100`]);
    err = await errorOf(() => h.db.command({ collMod: 'modbad', versioned: { ttl: 100 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([40415, 'IDLUnknownField', "BSON field 'collMod.versioned.ttl' is an unknown field."]);
    expect(await rawOptions('modbad')).toEqual({ versioned: { maxVersions: new Int32(2), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) } });
  });

  test('on a collection that is not versioned: 72 InvalidOptions; on a missing one: 26', async () => {
    await h.db.createCollection('plainmod');
    let err = await errorOf(() => h.db.command({ collMod: 'plainmod', versioned: { maxVersions: 2 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([72, 'InvalidOptions', 'option only supported on a versioned collection: versioned']);
    err = await errorOf(() => h.db.command({ collMod: 'nosuch', versioned: { maxVersions: 2 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([26, 'NamespaceNotFound', 'ns does not exist']);
  });
});

describe('what a versioned collection refuses and keeps', () => {
  test('secondary indexes (TTL indexes included) are 67 CannotCreateIndex; the _id index is there', async () => {
    await createVersioned(h.db, 'noidx');
    const ns = `${h.db.databaseName}.noidx`;
    let err = await errorOf(() => h.db.collection('noidx').createIndex({ a: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([67, 'CannotCreateIndex', `Index a_1 cannot be built: versioned collection ${ns} supports no secondary index (only _id)`]);
    err = await errorOf(() => h.db.collection('noidx').createIndex({ _ts: 1 }, { expireAfterSeconds: 60 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([67, 'CannotCreateIndex', `Index _ts_1 cannot be built: versioned collection ${ns} supports no secondary index (only _id)`]);
    expect((await h.db.collection('noidx').listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  test('renameCollection, within and across databases, keeps the options and every version', async () => {
    await createVersioned(h.db, 'moving', { maxVersions: 3 });
    await putRow(h.db, 'moving', { _id: 1, a: 'one' });
    const t = h.server.clock.now();
    h.server.clock.advance(5);
    await putRow(h.db, 'moving', { _id: 1, a: 'two' });
    const expected = { _id: 1, a: [version('two', t + 5), version('one', t)] };
    const admin = h.client.db('admin');
    await admin.command({ renameCollection: `${h.db.databaseName}.moving`, to: `${h.db.databaseName}.moved` });
    expect(await getRow(h.db, 'moved', 1)).toEqual(expected);
    const other = h.client.db(`${h.db.databaseName}_other`);
    await admin.command({ renameCollection: `${h.db.databaseName}.moved`, to: `${other.databaseName}.moved` });
    expect(await getRow(other, 'moved', 1)).toEqual(expected);
    const reply = await rawCommand(other, { listCollections: 1, filter: { name: 'moved' } });
    expect(reply.cursor.firstBatch[0].options).toEqual({ versioned: { maxVersions: new Int32(3), timeToLive: new Int32(-1), maxTimeDeviation: new Int32(86400) } });
    await other.dropDatabase();
  });

  test('drop, then create without versioned: an ordinary collection again', async () => {
    await createVersioned(h.db, 'again2');
    await h.db.collection('again2').drop();
    await h.db.createCollection('again2');
    expect(await rawOptions('again2')).toEqual({});
    const err = await errorOf(() => h.db.command({ getRow: 'again2', _id: 1 }));
    expect([err.code, err.codeName]).toEqual([20, 'IllegalOperation']);
  });
});
