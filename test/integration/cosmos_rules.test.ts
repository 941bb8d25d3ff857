/**
 * The Cosmos DB rules (src/cosmos/rules/) through the driver: in `--compat cosmos` each answers
 * Azure Cosmos DB for MongoDB's code and message; with the rule switched off, and in the default
 * `--compat mongodb`, the same request behaves as mongod.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import type { CosmosOptions } from '../../src/index.js';

const SORT = 'The index path corresponding to the specified order-by item is excluded.';

let cosmos: Harness;
let mongodb: Harness;
beforeAll(async () => {
  cosmos = await startHarness({ compat: 'cosmos' });
  mongodb = await startHarness();
});
afterAll(async () => {
  await cosmos.close();
  await mongodb.close();
});

/** A server in cosmos mode with `options`, for one test. */
async function withCosmos(options: CosmosOptions, fn: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHarness({ compat: 'cosmos', cosmos: options });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

async function fresh(h: Harness, name: string, docs: Document[] = []): Promise<void> {
  await h.db.collection(name).drop().catch(() => undefined);
  if (docs.length > 0) await h.db.collection(name).insertMany(docs);
}

describe('sortNeedsIndex', () => {
  test('a sort on a field no index covers is 2 BadValue; _id always sorts', async () => {
    await fresh(cosmos, 's', [{ _id: 2, a: 1, b: 2 }, { _id: 1, a: 2, b: 1 }]);
    const c = cosmos.db.collection('s');
    expect(await errorOf(() => c.find().sort({ a: 1 }).toArray())).toMatchObject({ code: 2, codeName: 'BadValue', errmsg: SORT });
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, a: 2, b: 1 }, { _id: 2, a: 1, b: 2 }]);
    await c.createIndex({ a: -1 });
    // A single-field index serves either direction.
    expect((await c.find().sort({ a: 1 }).toArray()).map((d) => d._id)).toEqual([2, 1]);
    expect((await c.find().sort({ a: -1 }).toArray()).map((d) => d._id)).toEqual([1, 2]);
  });

  test('a compound sort needs a compound index in the exact order, or all reversed', async () => {
    await fresh(cosmos, 's2', [{ _id: 1, a: 1, b: 1 }]);
    const c = cosmos.db.collection('s2');
    await c.createIndex({ a: 1 });
    await c.createIndex({ b: 1 });
    expect(await errorOf(() => c.find().sort({ a: 1, b: 1 }).toArray())).toMatchObject({ code: 2, errmsg: SORT });
    await c.createIndex({ a: 1, b: -1 });
    expect(await c.find().sort({ a: 1, b: -1 }).toArray()).toHaveLength(1);
    expect(await c.find().sort({ a: -1, b: 1 }).toArray()).toHaveLength(1);
    expect(await errorOf(() => c.find().sort({ a: 1, b: 1 }).toArray())).toMatchObject({ code: 2, errmsg: SORT });
    expect(await errorOf(() => c.find().sort({ b: -1, a: 1 }).toArray())).toMatchObject({ code: 2, errmsg: SORT });
  });

  test('switched off, and in mongodb mode, any sort runs', async () => {
    await fresh(mongodb, 's', [{ _id: 2, a: 1 }, { _id: 1, a: 2 }]);
    expect((await mongodb.db.collection('s').find().sort({ a: 1 }).toArray()).map((d) => d._id)).toEqual([2, 1]);
    await withCosmos({ rules: { sortNeedsIndex: false } }, async (h) => {
      await h.db.collection('s').insertMany([{ _id: 2, a: 1 }, { _id: 1, a: 2 }]);
      expect((await h.db.collection('s').find().sort({ a: 1 }).toArray()).map((d) => d._id)).toEqual([2, 1]);
    });
  });
});

describe('uniqueIndexOnEmpty', () => {
  test('a unique index on a collection holding documents is 67; on an empty one it is built', async () => {
    await fresh(cosmos, 'u', [{ _id: 1, e: 'x' }]);
    const err = await errorOf(() => cosmos.db.collection('u').createIndex({ e: 1 }, { unique: true }));
    expect(err).toMatchObject({ code: 67, codeName: 'CannotCreateIndex', errmsg: 'Cannot create unique index when collection contains documents' });
    // A plain index is fine.
    expect(await cosmos.db.collection('u').createIndex({ e: 1 })).toBe('e_1');
    await cosmos.db.createCollection('u_empty');
    expect(await cosmos.db.collection('u_empty').createIndex({ e: 1 }, { unique: true })).toBe('e_1');
  });

  test('EnableUniqueIndexReIndex, the rule off, and mongodb mode build it over the documents', async () => {
    await fresh(mongodb, 'u', [{ _id: 1, e: 'x' }]);
    expect(await mongodb.db.collection('u').createIndex({ e: 1 }, { unique: true })).toBe('e_1');
    for (const options of [{ capabilities: ['EnableUniqueIndexReIndex'] }, { rules: { uniqueIndexOnEmpty: false } }] as CosmosOptions[]) {
      await withCosmos(options, async (h) => {
        await h.db.collection('u').insertMany([{ _id: 1, e: 'x' }, { _id: 2, e: 'x' }]);
        // Built over the documents: duplicates fail as in mongod.
        expect(await errorOf(() => h.db.collection('u').createIndex({ e: 1 }, { unique: true }))).toMatchObject({ code: 11000 });
        await h.db.collection('u').deleteOne({ _id: 2 });
        expect(await h.db.collection('u').createIndex({ e: 1 }, { unique: true })).toBe('e_1');
      });
    }
  });
});

describe('unsupportedStages and lookupPipeline', () => {
  test.each(['$bucket', '$bucketAuto', '$graphLookup', '$collStats', '$indexStats', '$listSessions'])('%s is 40324 Unrecognized pipeline stage name', async (stage) => {
    await fresh(cosmos, 'p', [{ _id: 1 }]);
    const err = await errorOf(() => cosmos.db.collection('p').aggregate([{ [stage]: {} }]).toArray());
    expect(err).toMatchObject({ code: 40324, errmsg: `Unrecognized pipeline stage name: '${stage}'` });
  });

  test('$currentOp and $listLocalSessions on the database are 40324 too; nested stages are checked', async () => {
    for (const stage of ['$currentOp', '$listLocalSessions']) {
      const err = await errorOf(() => cosmos.client.db('admin').aggregate([{ [stage]: {} }]).toArray());
      expect(err).toMatchObject({ code: 40324, errmsg: `Unrecognized pipeline stage name: '${stage}'` });
    }
    const nested = await errorOf(() => cosmos.db.collection('p').aggregate([{ $facet: { a: [{ $bucketAuto: { groupBy: '$x', buckets: 2 } }] } }]).toArray());
    expect(nested).toMatchObject({ code: 40324, errmsg: "Unrecognized pipeline stage name: '$bucketAuto'" });
  });

  // A 4.2 account reports wire version 8, which the Node.js driver 6 refuses (as it refuses a real
  // one): its table ($unionWith and $setWindowFields absent) is checked in test/unit/cosmos/.
  test('the stages absent at the version: $densify and $fill at 5.0, present at 6.0', async () => {
    await withCosmos({ serverVersion: '5.0' }, async (h) => {
      await h.db.collection('p').insertOne({ _id: 1 });
      expect(await h.db.collection('p').aggregate([{ $unionWith: 'p' }]).toArray()).toEqual([{ _id: 1 }, { _id: 1 }]);
      expect(await errorOf(() => h.db.collection('p').aggregate([{ $densify: { field: 'x', range: { step: 1, bounds: 'full' } } }]).toArray())).toMatchObject({
        code: 40324,
        errmsg: "Unrecognized pipeline stage name: '$densify'",
      });
      expect(await errorOf(() => h.db.collection('p').aggregate([{ $fill: { output: { x: { value: 0 } } } }]).toArray())).toMatchObject({
        code: 40324,
        errmsg: "Unrecognized pipeline stage name: '$fill'",
      });
    });
    await withCosmos({ serverVersion: '6.0' }, async (h) => {
      await h.db.collection('p').insertOne({ _id: 1 });
      expect(await h.db.collection('p').aggregate([{ $fill: { output: { x: { value: 0 } } } }]).toArray()).toEqual([{ _id: 1, x: 0 }]);
    });
  });

  test('$lookup with let or pipeline is 115; with localField/foreignField it runs', async () => {
    await fresh(cosmos, 'l', [{ _id: 1, k: 1 }]);
    const c = cosmos.db.collection('l');
    expect(await errorOf(() => c.aggregate([{ $lookup: { from: 'l', pipeline: [], as: 'o' } }]).toArray())).toMatchObject({
      code: 115,
      codeName: 'CommandNotSupported',
      errmsg: "$lookup with 'pipeline' is not supported.",
    });
    expect(await errorOf(() => c.aggregate([{ $lookup: { from: 'l', let: { x: '$k' }, pipeline: [], as: 'o' } }]).toArray())).toMatchObject({
      code: 115,
      errmsg: "$lookup with 'let' is not supported.",
    });
    expect(await c.aggregate([{ $lookup: { from: 'l', localField: 'k', foreignField: 'k', as: 'o' } }]).toArray()).toEqual([{ _id: 1, k: 1, o: [{ _id: 1, k: 1 }] }]);
  });

  test('mongodb mode and the rules off run them', async () => {
    await fresh(mongodb, 'p', [{ _id: 1, x: 1 }]);
    expect(await mongodb.db.collection('p').aggregate([{ $bucket: { groupBy: '$x', boundaries: [0, 5] } }]).toArray()).toEqual([{ _id: 0, count: 1 }]);
    expect(await mongodb.db.collection('p').aggregate([{ $lookup: { from: 'p', pipeline: [], as: 'o' } }]).toArray()).toEqual([{ _id: 1, x: 1, o: [{ _id: 1, x: 1 }] }]);
    await withCosmos({ rules: { unsupportedStages: false, lookupPipeline: false } }, async (h) => {
      await h.db.collection('p').insertOne({ _id: 1, x: 1 });
      expect(await h.db.collection('p').aggregate([{ $bucket: { groupBy: '$x', boundaries: [0, 5] } }]).toArray()).toEqual([{ _id: 0, count: 1 }]);
      expect(await h.db.collection('p').aggregate([{ $lookup: { from: 'p', pipeline: [], as: 'o' } }]).toArray()).toEqual([{ _id: 1, x: 1, o: [{ _id: 1, x: 1 }] }]);
    });
  });
});

describe('unsupportedCommands', () => {
  test('a command the version does not list is 115 CommandNotSupported; mayfly test commands stay', async () => {
    for (const command of [{ validate: 'x' }, { dataSize: 'x.y' }, { replSetGetStatus: 1 }]) {
      const name = Object.keys(command)[0]!;
      const db = name === 'replSetGetStatus' ? cosmos.client.db('admin') : cosmos.db;
      expect(await errorOf(() => db.command(command))).toMatchObject({ code: 115, codeName: 'CommandNotSupported', errmsg: `Command ${name} not supported.` });
    }
    expect(await cosmos.client.db('admin').command({ mayflyClock: 1 })).toHaveProperty('ok', 1);
  });

  test('role management: 115 at 6.0, available at 7.0; mongodb mode answers as mongod', async () => {
    await withCosmos({ serverVersion: '6.0' }, async (h) => {
      expect(await errorOf(() => h.db.command({ rolesInfo: 1 }))).toMatchObject({ code: 115, errmsg: 'Command rolesInfo not supported.' });
    });
    expect(await cosmos.db.command({ rolesInfo: 1 })).toEqual({ roles: [], ok: 1 });
    expect(await errorOf(() => mongodb.db.command({ replSetGetStatus: 1 }))).not.toMatchObject({ code: 115 });
  });
});

describe('queryOperators', () => {
  test('$where and $text are 115 in find and in $match; mongodb mode runs $where', async () => {
    await fresh(cosmos, 'q', [{ _id: 1 }]);
    expect(await errorOf(() => cosmos.db.collection('q').find({ $where: 'true' }).toArray())).toMatchObject({ code: 115, errmsg: 'The query operator $where is not supported.' });
    expect(await errorOf(() => cosmos.db.collection('q').aggregate([{ $match: { $or: [{ $text: { $search: 'x' } }] } }]).toArray())).toMatchObject({
      code: 115,
      errmsg: 'The query operator $text is not supported.',
    });
    await fresh(mongodb, 'q', [{ _id: 1 }]);
    const err = await errorOf(() => mongodb.db.collection('q').find({ $where: 'true' }).toArray());
    expect(err.code).not.toBe(115);
  });
});

describe('indexKinds and indexPathDepth', () => {
  test.each([
    [{ t: 'text' }, {}, "Index type 'text' is not supported."],
    [{ p: '2d' }, {}, "Index type '2d' is not supported."],
    [{ h: 'hashed' }, {}, "Index type 'hashed' is not supported."],
    [{ a: 1 }, { sparse: true }, "The index option 'sparse' is not supported."],
    [{ a: 1 }, { collation: { locale: 'fr' } }, "The index option 'collation' is not supported."],
    [{ a: 1 }, { partialFilterExpression: { a: { $gt: 1 } } }, "The index option 'partialFilterExpression' without 'unique: true' is not supported."],
    [{ '$**': 1, a: 1 }, { wildcardProjection: { a: 0 } }, 'A compound wildcard index is not supported.'],
    [{ '$**': 1 }, { wildcardProjection: { a: 1 } }, "The index option 'wildcardProjection' is not supported."],
  ] as Array<[Document, Document, string]>)('%o %o is 115', async (key, options, message) => {
    const err = await errorOf(() => cosmos.db.command({ createIndexes: 'k', indexes: [{ key, name: 'k', ...options }] }));
    expect(err).toMatchObject({ code: 115, codeName: 'CommandNotSupported', errmsg: message });
  });

  test('a unique partial index and a plain wildcard index are built', async () => {
    await fresh(cosmos, 'k2');
    expect(await cosmos.db.collection('k2').createIndex({ a: 1 }, { unique: true, partialFilterExpression: { a: { $exists: true } } })).toBe('a_1');
    expect(await cosmos.db.collection('k2').createIndex({ '$**': 1 })).toBe('$**_1');
  });

  test('a path deeper than 6 levels is 67; 6 levels are fine', async () => {
    const err = await errorOf(() => cosmos.db.collection('d').createIndex({ 'a.b.c.d.e.f.g': 1 }));
    expect(err).toMatchObject({ code: 67, errmsg: "The index path 'a.b.c.d.e.f.g' is 7 levels deep; Azure Cosmos DB indexes paths of at most 6 levels." });
    expect(await cosmos.db.collection('d').createIndex({ 'a.b.c.d.e.f': 1 })).toBe('a.b.c.d.e.f_1');
  });

  test('mongodb mode and the rules off build them', async () => {
    expect(await mongodb.db.collection('k').createIndex({ t: 'text' })).toBe('t_text');
    expect(await mongodb.db.collection('k').createIndex({ 'a.b.c.d.e.f.g': 1 })).toBe('a.b.c.d.e.f.g_1');
    await withCosmos({ rules: { indexKinds: false, indexPathDepth: false } }, async (h) => {
      expect(await h.db.collection('k').createIndex({ a: 1 }, { sparse: true })).toBe('a_1');
      expect(await h.db.collection('k').createIndex({ 'a.b.c.d.e.f.g': 1 })).toBe('a.b.c.d.e.f.g_1');
    });
  });
});

describe('documentSizeLimit', () => {
  const big = (bytes: number) => ({ _id: 1, s: 'x'.repeat(bytes) });
  test('a document over 2 MB is refused on insert and on update; 16 MB with EnableMongo16MBDocumentSupport', async () => {
    await fresh(cosmos, 'z');
    const c = cosmos.db.collection('z');
    const err = await errorOf(() => c.insertOne(big(2 * 1024 * 1024)));
    expect(err.code).toBe(10334);
    expect(err.errmsg).toBe(`Request size is too large. size in bytes: ${2 * 1024 * 1024 + 22}, max size: ${2 * 1024 * 1024}`);
    await c.insertOne(big(2 * 1024 * 1024 - 100));
    const grown = await errorOf(() => c.updateOne({ _id: 1 }, { $set: { t: 'y'.repeat(200) } }));
    expect(grown.code).toBe(10334);
    await withCosmos({ capabilities: ['EnableMongo16MBDocumentSupport'] }, async (h) => {
      await h.db.collection('z').insertOne(big(3 * 1024 * 1024));
      expect(await h.db.collection('z').countDocuments()).toBe(1);
    });
    await fresh(mongodb, 'z');
    await mongodb.db.collection('z').insertOne(big(3 * 1024 * 1024));
    expect(await mongodb.db.collection('z').countDocuments()).toBe(1);
  });
});

describe('ignoreWriteConcern and replyTypes', () => {
  test('a write concern mongod refuses is ignored in cosmos mode', async () => {
    await fresh(cosmos, 'w');
    const reply = await cosmos.db.command({ insert: 'w', documents: [{ _id: 1 }], writeConcern: { w: -1 } });
    expect(reply).toEqual({ n: 1, ok: 1 });
    const err = await errorOf(() => mongodb.db.command({ insert: 'w', documents: [{ _id: 1 }], writeConcern: { w: -1 } }));
    expect(err).toMatchObject({ code: 9, errmsg: 'w has to be a non-negative number and not greater than 50; found: -1' });
  });

  test('createIndexes, dropIndexes and create open with _t; not in mongodb mode nor with the rule off', async () => {
    await fresh(cosmos, 't');
    const created = await cosmos.db.command({ create: 't' });
    expect(Object.keys(created)).toEqual(['_t', 'ok']);
    expect(created._t).toBe('OKMongoResponse');
    const index = await cosmos.db.command({ createIndexes: 't', indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(Object.keys(index)[0]).toBe('_t');
    expect(index._t).toBe('CreateIndexesResponse');
    const dropped = await cosmos.db.command({ dropIndexes: 't', index: 'a_1' });
    expect(dropped).toEqual({ _t: 'DropIndexesResponse', nIndexesWas: 2, ok: 1 });
    expect(await mongodb.db.command({ create: 't_m' })).toEqual({ ok: 1 });
    await withCosmos({ rules: { replyTypes: false } }, async (h) => {
      expect(await h.db.command({ createIndexes: 't', indexes: [{ key: { a: 1 }, name: 'a_1' }] })).toEqual({ createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2, ok: 1 });
    });
  });
});
