/**
 * Views through the official driver: create (and mongosh's db.createView shape), the exact
 * listCollections entries, reads (find with every conversion, getMore, aggregate, count,
 * estimatedDocumentCount, distinct, explain) on a view and on a view of a view, collMod, drop,
 * and mongod's errors: 166 on writes and collection commands, 167, 168, 5, 48, 40324.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionInfo, Document } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
let ns: string;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  ns = db.databaseName;
  const src = Array.from({ length: 10 }, (_, i) => ({ _id: i, g: i % 3, v: i * 10, tags: [i, i + 1] }));
  await db.collection('src').insertMany(src);
  await db.collection('other').insertMany([{ _id: 0, g: 0 }, { _id: 1, g: 1 }, { _id: 2, g: 2 }]);
  await db.command({ create: 'v1', viewOn: 'src', pipeline: [{ $match: { g: 1 } }] });
  await db.command({ create: 'v4', viewOn: 'v1', pipeline: [{ $project: { v: 1, g: 1 } }] });
});
afterAll(async () => {
  await h.close();
});

const ids = (docs: Document[]): unknown[] => docs.map((d) => d._id);

describe('creating and listing views', () => {
  it('listCollections shows the views after the collections, with system.views', async () => {
    const entries = await db.listCollections({}, { nameOnly: false }).toArray();
    const views = entries.filter((e) => e.type === 'view');
    expect(views).toEqual([
      { name: 'v1', type: 'view', options: { viewOn: 'src', pipeline: [{ $match: { g: 1 } }] }, info: { readOnly: true } },
      { name: 'v4', type: 'view', options: { viewOn: 'v1', pipeline: [{ $project: { v: 1, g: 1 } }] }, info: { readOnly: true } },
    ]);
    expect(entries.map((e) => [e.name, e.type])).toEqual([
      ['src', 'collection'],
      ['other', 'collection'],
      ['system.views', 'collection'],
      ['v1', 'view'],
      ['v4', 'view'],
    ]);
    expect(await db.listCollections({ type: 'view' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'v1', type: 'view' },
      { name: 'v4', type: 'view' },
    ]);
    // The definitions are documents of system.views, as in mongod.
    expect(await db.collection('system.views').find().toArray()).toEqual([
      { _id: `${ns}.v1`, viewOn: 'src', pipeline: [{ $match: { g: 1 } }] },
      { _id: `${ns}.v4`, viewOn: 'v1', pipeline: [{ $project: { v: 1, g: 1 } }] },
    ]);
  });

  it('db.createView sends create with viewOn and pipeline; creating it again is a no-op', async () => {
    await db.createCollection('byG', { viewOn: 'src', pipeline: [{ $sort: { g: 1, _id: 1 } }] });
    expect(await db.command({ create: 'byG', viewOn: 'src', pipeline: [{ $sort: { g: 1, _id: 1 } }] })).toEqual({ ok: 1 });
    expect(ids(await db.collection('byG').find().limit(4).toArray())).toEqual([0, 3, 6, 9]);
    const err = await errorOf(() => db.command({ create: 'byG', viewOn: 'src', pipeline: [] }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([48, 'NamespaceExists', `namespace ${ns}.byG already exists, but with pipeline { 0: { $sort: { g: 1, _id: 1 } } } rather than {}`]);
    const otherSource = await errorOf(() => db.command({ create: 'byG', viewOn: 'other', pipeline: [{ $sort: { g: 1, _id: 1 } }] }));
    expect([otherSource.code, otherSource.errmsg]).toEqual([48, `namespace ${ns}.byG already exists, but is a view on ${ns}.src rather than ${ns}.other`]);
    const overCollection = await errorOf(() => db.command({ create: 'src', viewOn: 'other', pipeline: [] }));
    expect([overCollection.code, overCollection.errmsg]).toEqual([48, `Collection ${ns}.src already exists.`]);
    const collectionOverView = await errorOf(() => db.command({ create: 'v1' }));
    expect([collectionOverView.code, collectionOverView.errmsg]).toEqual([48, `A view already exists. NS: ${ns}.v1`]);
    await db.collection('byG').drop();
  });

  it('a view over a missing collection is empty', async () => {
    await db.command({ create: 'later', viewOn: 'nosuch', pipeline: [] });
    expect(await db.collection('later').find().toArray()).toEqual([]);
    expect(await db.collection('later').countDocuments()).toBe(0);
    await db.collection('nosuch').insertOne({ _id: 'x' });
    expect(await db.collection('later').find().toArray()).toEqual([{ _id: 'x' }]);
    await db.collection('later').drop();
  });

  it.each([
    [{ create: 'bad', pipeline: [] }, 72, "'pipeline' requires 'viewOn' to also be specified"],
    [{ create: 'bad', viewOn: 'src', pipeline: [{ $nope: 1 }] }, 40324, "Unrecognized pipeline stage name: '$nope'"],
    [
      { create: 'bad', viewOn: 'src', pipeline: [{ $match: {} }, { $out: 'x' }] },
      167,
      'Invalid pipeline for view NS.bad :: caused by :: The aggregation stage $out in location 1 of the pipeline cannot be used in the view definition of NS.bad because it writes to disk',
    ],
    [
      { create: 'bad', viewOn: 'src', pipeline: [{ $merge: { into: 'x' } }] },
      167,
      'Invalid pipeline for view NS.bad :: caused by :: The aggregation stage $merge in location 0 of the pipeline cannot be used in the view definition of NS.bad because it writes to disk',
    ],
    [{ create: 'bad', viewOn: 'src', pipeline: [{ $changeStream: {} }] }, 167, 'Invalid pipeline for view NS.bad :: caused by :: $changeStream cannot be used in a view definition'],
    [{ create: 'bad', viewOn: 'src', pipeline: { $match: {} } }, 14, "BSON field 'create.pipeline' is the wrong type 'object', expected type 'array'"],
    [{ create: 'bad', viewOn: 'src', pipeline: [5] }, 14, "BSON field 'create.pipeline.0' is the wrong type 'int', expected type 'object'"],
    [{ create: 'bad', viewOn: 5, pipeline: [] }, 14, "BSON field 'create.viewOn' is the wrong type 'int', expected type 'string'"],
    [{ create: 'bad', viewOn: '', pipeline: [] }, 2, "'viewOn' cannot be empty"],
    [{ create: 'bad', viewOn: 'bad', pipeline: [] }, 5, 'View cycle detected: NS.bad => NS.bad => NS.bad'],
  ])('create %j fails with %i', async (cmd, code, errmsg) => {
    const err = await errorOf(() => db.command(cmd));
    expect([err.code, err.errmsg]).toEqual([code, errmsg.replaceAll('NS', ns)]);
    expect(await db.listCollections({ name: 'bad' }).toArray()).toEqual([]);
  });
});

describe('reading a view', () => {
  it('find: filter, sort, skip, limit, projection over a view and a view of a view', async () => {
    expect(await db.collection('v1').find().toArray()).toEqual([
      { _id: 1, g: 1, v: 10, tags: [1, 2] },
      { _id: 4, g: 1, v: 40, tags: [4, 5] },
      { _id: 7, g: 1, v: 70, tags: [7, 8] },
    ]);
    expect(await db.collection('v4').find({ v: { $gt: 10 } }).sort({ v: -1 }).toArray()).toEqual([
      { _id: 7, g: 1, v: 70 },
      { _id: 4, g: 1, v: 40 },
    ]);
    expect(await db.collection('v1').find({}, { projection: { _id: 0, v: 1 } }).sort({ v: 1 }).skip(1).limit(1).toArray()).toEqual([{ v: 40 }]);
    expect(await db.collection('v1').findOne({ _id: 4 })).toEqual({ _id: 4, g: 1, v: 40, tags: [4, 5] });
    expect(ids(await db.collection('v1').find().sort({ $natural: -1 }).toArray())).toEqual([7, 4, 1]);
  });

  it('find replies on the view namespace and getMore continues the cursor', async () => {
    const reply = await db.command({ find: 'v1', batchSize: 2 }, { promoteLongs: false });
    expect(reply.cursor.ns).toBe(`${ns}.v1`);
    expect(ids(reply.cursor.firstBatch)).toEqual([1, 4]);
    const more = await db.command({ getMore: reply.cursor.id, collection: 'v1' });
    expect(ids(more.cursor.nextBatch)).toEqual([7]);
    expect(more.cursor.id.toString()).toBe('0');
    expect(ids(await db.collection('v4').find({}, { batchSize: 1 }).toArray())).toEqual([1, 4, 7]);
  });

  it('aggregate prepends the view pipeline', async () => {
    expect(await db.collection('v4').aggregate([{ $group: { _id: '$g', total: { $sum: '$v' } } }]).toArray()).toEqual([{ _id: 1, total: 120 }]);
    const reply = await db.command({ aggregate: 'v1', pipeline: [{ $match: { v: { $gte: 40 } } }], cursor: { batchSize: 1 } }, { promoteLongs: false });
    expect(reply.cursor.ns).toBe(`${ns}.v1`);
    expect(ids(reply.cursor.firstBatch)).toEqual([4]);
    const more = await db.command({ getMore: reply.cursor.id, collection: 'v1' });
    expect(ids(more.cursor.nextBatch)).toEqual([7]);
  });

  it('count, countDocuments, estimatedDocumentCount and distinct', async () => {
    expect(await db.collection('v1').estimatedDocumentCount()).toBe(3);
    expect(await db.collection('v4').countDocuments({ v: { $gt: 10 } })).toBe(2);
    expect(await db.command({ count: 'v1', query: { v: { $lt: 50 } }, skip: 1 })).toEqual({ n: 1, ok: 1 });
    expect(await db.command({ count: 'v4', limit: -2 })).toEqual({ n: 2, ok: 1 });
    expect(await db.collection('v1').distinct('tags')).toEqual([1, 2, 4, 5, 7, 8]);
    expect(await db.collection('v4').distinct('v', { v: { $gt: 10 } })).toEqual([40, 70]);
    expect(await db.collection('v4').distinct('tags')).toEqual([]);
  });

  it('explain describes the aggregation over the underlying collection', async () => {
    const explained = await db.collection('v1').find({ v: 40 }).explain('queryPlanner');
    expect(explained.queryPlanner.namespace).toBe(`${ns}.src`);
    expect(explained.queryPlanner.parsedQuery).toEqual({ $and: [{ g: { $eq: 1 } }, { v: { $eq: 40 } }] });
    expect(explained.command).toEqual({ aggregate: 'src', pipeline: [{ $match: { g: 1 } }, { $match: { v: 40 } }], cursor: {}, $db: ns });
    const grouped = await db.collection('v4').aggregate([{ $group: { _id: '$g' } }]).explain('queryPlanner');
    expect(grouped.stages.map((s: Document) => Object.keys(s)[0])).toEqual(['$cursor', '$project', '$group']);
    const update = await errorOf(() => db.command({ explain: { update: 'v1', updates: [{ q: {}, u: { $set: { a: 1 } } }] } }));
    expect([update.code, update.errmsg]).toEqual([166, `Namespace ${ns}.v1 is a view, not a collection`]);
  });

  it('options an aggregation refuses, and a foreign collation', async () => {
    const cases: Array<[Document, number, string]> = [
      [{ find: 'v1', tailable: true }, 168, 'Tailable cursors are not supported in aggregation.'],
      [{ find: 'v1', min: { _id: 1 }, hint: { _id: 1 } }, 168, 'Option min not supported in aggregation.'],
      [{ find: 'v1', max: { _id: 1 }, hint: { _id: 1 } }, 168, 'Option max not supported in aggregation.'],
      [{ find: 'v1', returnKey: true }, 168, 'Option returnKey not supported in aggregation.'],
      [{ find: 'v1', showRecordId: true }, 168, 'Option showRecordId not supported in aggregation.'],
      [{ find: 'v1', noCursorTimeout: true }, 168, 'Option noCursorTimeout not supported in aggregation.'],
      [{ find: 'v1', allowPartialResults: true }, 168, 'Option allowPartialResults not supported in aggregation.'],
      [{ find: 'v1', singleBatch: true }, 168, 'Option singleBatch not supported in aggregation.'],
      [{ find: 'v1', collation: { locale: 'fr' } }, 167, "Cannot override a view's default collation"],
      [{ aggregate: 'v1', pipeline: [], cursor: {}, collation: { locale: 'fr' } }, 167, "Cannot override a view's default collation"],
      [{ count: 'v1', collation: { locale: 'fr' } }, 167, "Cannot override a view's default collation"],
    ];
    for (const [cmd, code, errmsg] of cases) {
      const err = await errorOf(() => db.command(cmd));
      expect([cmd, err.code, err.errmsg]).toEqual([cmd, code, errmsg]);
    }
    // singleBatch is allowed with limit 1.
    const one = await db.command({ find: 'v1', singleBatch: true, limit: 1 });
    expect([ids(one.cursor.firstBatch), one.cursor.id.toString()]).toEqual([[1], '0']);
  });
});

describe('a view takes no writes', () => {
  const refused = () => `Namespace ${ns}.v1 is a view, not a collection`;

  it('insert, update, delete: one 166 write error per statement (the first alone when ordered)', async () => {
    const cases: Array<[Document, number]> = [
      [{ insert: 'v1', documents: [{ _id: 100 }, { _id: 101 }] }, 1],
      [{ insert: 'v1', documents: [{ _id: 100 }, { _id: 101 }], ordered: false }, 2],
      [{ update: 'v1', updates: [{ q: {}, u: { $set: { a: 1 } } }] }, 1],
      [{ update: 'v1', updates: [{ q: { _id: 50 }, u: { $set: { a: 1 } }, upsert: true }, { q: {}, u: { a: 1 } }], ordered: false }, 2],
      [{ delete: 'v1', deletes: [{ q: {}, limit: 1 }, { q: {}, limit: 0 }], ordered: false }, 2],
    ];
    for (const [cmd, reported] of cases) {
      const reply = await db.command(cmd);
      expect(reply.n).toBe(0);
      expect(reply.writeErrors).toEqual(Array.from({ length: reported }, (_, index) => ({ index, code: 166, errmsg: refused() })));
    }
    expect(ids(await db.collection('src').find({ _id: { $gte: 50 } }).toArray())).toEqual([]);
  });

  it('findAndModify, bulkWrite and the collection commands', async () => {
    const cases: Array<[Document, string?]> = [
      [{ findAndModify: 'v1', query: {}, remove: true }],
      [{ findAndModify: 'v1', query: {}, update: { $set: { a: 1 } }, upsert: true }],
      [{ createIndexes: 'v1', indexes: [{ key: { v: 1 }, name: 'v_1' }] }],
      [{ listIndexes: 'v1' }],
      [{ dropIndexes: 'v1', index: '*' }],
      [{ collStats: 'v1' }],
    ];
    for (const [cmd] of cases) {
      const err = await errorOf(() => db.command(cmd));
      expect([cmd, err.code, err.codeName, err.errmsg]).toEqual([cmd, 166, 'CommandNotSupportedOnView', refused()]);
    }
    const bulk = await db.collection('v1').bulkWrite([{ insertOne: { document: { _id: 1 } } }], { ordered: false }).catch((e) => e);
    expect(bulk.writeErrors.map((e: { code: number; errmsg: string }) => [e.code, e.errmsg])).toEqual([[166, refused()]]);
    const admin = h.client.db('admin');
    const rename = await errorOf(() => admin.command({ renameCollection: `${ns}.v1`, to: `${ns}.v1b` }));
    expect([rename.code, rename.errmsg]).toEqual([166, `cannot rename view: ${ns}.v1`]);
    const onto = await errorOf(() => admin.command({ renameCollection: `${ns}.other`, to: `${ns}.v1`, dropTarget: true }));
    expect([onto.code, onto.errmsg]).toEqual([48, `a view already exists with that name: ${ns}.v1`]);
  });

  it('client.bulkWrite (the 8.0 bulkWrite command) reports 166 per operation', async () => {
    const result = await h.client
      .bulkWrite(
        [
          { namespace: `${ns}.v1`, name: 'insertOne', document: { _id: 9 } },
          { namespace: `${ns}.v1`, name: 'updateOne', filter: {}, update: { $set: { a: 1 } } },
        ],
        { ordered: false, verboseResults: true },
      )
      .catch((e) => e);
    expect([...result.writeErrors.values()].map((e: { code: number; message: string }) => [e.code, e.message])).toEqual([
      [166, refused()],
      [166, refused()],
    ]);
  });
});

describe('changing and dropping views', () => {
  it('collMod replaces viewOn and pipeline, each on its own', async () => {
    await db.command({ create: 'cm', viewOn: 'src', pipeline: [{ $match: { g: 1 } }] });
    expect(await db.command({ collMod: 'cm', pipeline: [{ $match: { g: 2 } }] })).toEqual({ ok: 1 });
    expect(ids(await db.collection('cm').find().toArray())).toEqual([2, 5, 8]);
    expect((await db.listCollections<CollectionInfo>({ name: 'cm' }).toArray())[0]!.options).toEqual({ viewOn: 'src', pipeline: [{ $match: { g: 2 } }] });
    await db.command({ collMod: 'cm', viewOn: 'other' });
    expect(ids(await db.collection('cm').find().toArray())).toEqual([2]);
    const cases: Array<[Document, number, string]> = [
      [{ collMod: 'src', viewOn: 'other', pipeline: [] }, 72, 'option only supported on a view: pipeline'],
      [{ collMod: 'cm', validator: { a: 1 } }, 72, 'option not supported on a view: validator'],
      [{ collMod: 'cm', validationLevel: 'off' }, 72, 'option not supported on a view: validationLevel'],
      [{ collMod: 'cm', index: { name: 'x', hidden: true } }, 72, 'option not supported on a view: index'],
      [{ collMod: 'v1', viewOn: 'v4', pipeline: [] }, 5, `View cycle detected: ${ns}.v1 => ${ns}.v1 => ${ns}.v4 => ${ns}.v1`],
      [{ collMod: 'cm', viewOn: 'src', pipeline: [{ $nope: 1 }] }, 40324, "Unrecognized pipeline stage name: '$nope'"],
      [
        { collMod: 'cm', viewOn: 'src', pipeline: [{ $out: 'x' }] },
        167,
        `Invalid pipeline for view ${ns}.cm :: caused by :: The aggregation stage $out in location 0 of the pipeline cannot be used in the view definition of ${ns}.cm because it writes to disk`,
      ],
      [{ collMod: 'cm', viewOn: '', pipeline: [] }, 2, "'viewOn' cannot be empty"],
    ];
    for (const [cmd, code, errmsg] of cases) {
      const err = await errorOf(() => db.command(cmd));
      expect([cmd, err.code, err.errmsg]).toEqual([cmd, code, errmsg]);
    }
    expect(ids(await db.collection('cm').find().toArray())).toEqual([2]);
  });

  it('drop removes a view (no nIndexesWas); the name is free again', async () => {
    await db.command({ create: 'gone', viewOn: 'src', pipeline: [] });
    expect(await db.command({ drop: 'gone' })).toEqual({ ns: `${ns}.gone`, ok: 1 });
    expect(await db.listCollections({ name: 'gone' }).toArray()).toEqual([]);
    expect(await db.command({ drop: 'gone' })).toEqual({ ok: 1 });
    await db.collection('gone').insertOne({ _id: 1 });
    expect(await db.collection('gone').find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('dbStats counts the views; dropDatabase removes them', async () => {
    const other = h.client.db(`${ns}_views_drop`);
    await other.collection('c').insertOne({ _id: 1 });
    await other.command({ create: 'vv', viewOn: 'c', pipeline: [] });
    const stats = await other.command({ dbStats: 1 });
    expect([stats.collections, stats.views]).toEqual([2, 1]);
    await other.dropDatabase();
    expect(await other.listCollections().toArray()).toEqual([]);
  });
});
