/**
 * Index kinds end to end: what createIndexes stores and listIndexes shows, what each kind
 * enforces (unique, compound unique, missing fields, sparse, partial, multikey and parallel
 * arrays, hashed) and mongod's errors, against a server in `--compat mongodb`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

/** The winning plan of `find(filter)`, walked down to its leaf stages. */
async function planStages(coll: string, filter: Document, options: Document = {}): Promise<string[]> {
  const explain = await h.db.command({ explain: { find: coll, filter, ...options }, verbosity: 'queryPlanner' });
  const out: string[] = [];
  let stage = explain.queryPlanner.winningPlan as Document | undefined;
  while (stage) {
    out.push(stage.indexName ? `${stage.stage} ${stage.indexName}` : (stage.stage as string));
    stage = stage.inputStage as Document | undefined;
  }
  return out;
}

describe('createIndexes and listIndexes', () => {
  it('single-field and compound ascending/descending indexes are stored and listed exactly', async () => {
    const reply = await h.db.command({
      createIndexes: 'kinds',
      indexes: [
        { key: { a: 1 }, name: 'a_1' },
        { key: { b: -1, c: 1 }, name: 'b_-1_c_1' },
        { key: { d: 1 }, name: 'd_v1', v: 1 },
      ],
    });
    expect(reply).toEqual({ createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 4, ok: 1 });
    expect(Object.keys(reply)).toEqual(['createdCollectionAutomatically', 'numIndexesBefore', 'numIndexesAfter', 'ok']);
    const listed = await h.db.command({ listIndexes: 'kinds' });
    expect(listed.cursor).toEqual({
      firstBatch: [
        { v: 2, key: { _id: 1 }, name: '_id_' },
        { v: 2, key: { a: 1 }, name: 'a_1' },
        { v: 2, key: { b: -1, c: 1 }, name: 'b_-1_c_1' },
        { v: 1, key: { d: 1 }, name: 'd_v1' },
      ],
      id: expect.anything(),
      ns: `${h.db.databaseName}.$cmd.listIndexes.kinds`,
    });
    const again = await h.db.command({ createIndexes: 'kinds', indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(again).toEqual({ numIndexesBefore: 4, numIndexesAfter: 4, note: 'all indexes already exist', ok: 1 });
    const more = await h.db.command({ createIndexes: 'kinds', indexes: [{ key: { a: 1 }, name: 'a_1' }, { key: { e: 1 }, name: 'e_1' }] });
    expect(more).toEqual({ createdCollectionAutomatically: false, numIndexesBefore: 4, numIndexesAfter: 5, ok: 1 });
  });

  it('listIndexes is a cursor honouring batchSize', async () => {
    const first = await h.db.command({ listIndexes: 'kinds', cursor: { batchSize: 2 } }, { promoteLongs: false });
    expect(first.cursor.firstBatch.map((s: Document) => s.name)).toEqual(['_id_', 'a_1']);
    const rest = await h.db.command({ getMore: first.cursor.id, collection: '$cmd.listIndexes.kinds' });
    expect(rest.cursor.nextBatch.map((s: Document) => s.name)).toEqual(['b_-1_c_1', 'd_v1', 'e_1']);
    expect((await h.db.collection('kinds').listIndexes().toArray()).map((s) => s.name)).toEqual(['_id_', 'a_1', 'b_-1_c_1', 'd_v1', 'e_1']);
  });

  it('hidden, collation, hashed, text and 2dsphere indexes are accepted and listed as mongod lists them', async () => {
    const coll = h.db.collection('special');
    await coll.createIndex({ h: 1 }, { hidden: true });
    await coll.createIndex({ s: 1 }, { collation: { locale: 'fr', strength: 1 } });
    await coll.createIndex({ u: 'hashed' });
    await coll.createIndex({ title: 'text', body: 'text' }, { name: 'text_idx', default_language: 'french' });
    await coll.createIndex({ loc: '2dsphere' });
    await coll.createIndex({ visible: 1 }, { hidden: false });
    expect(await coll.indexes()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { h: 1 }, name: 'h_1', hidden: true },
      {
        v: 2,
        key: { s: 1 },
        name: 's_1',
        collation: {
          locale: 'fr',
          caseLevel: false,
          caseFirst: 'off',
          strength: 1,
          numericOrdering: false,
          alternate: 'non-ignorable',
          maxVariable: 'punct',
          normalization: false,
          backwards: false,
          version: '57.1',
        },
      },
      { v: 2, key: { u: 'hashed' }, name: 'u_hashed' },
      {
        v: 2,
        key: { _fts: 'text', _ftsx: 1 },
        name: 'text_idx',
        weights: { body: 1, title: 1 },
        default_language: 'french',
        language_override: 'language',
        textIndexVersion: 3,
      },
      { v: 2, key: { loc: '2dsphere' }, name: 'loc_2dsphere', '2dsphereIndexVersion': 3 },
      { v: 2, key: { visible: 1 }, name: 'visible_1' },
    ]);
    let err = await errorOf(() => coll.createIndex({ other: 'text' }));
    expect([err.code, err.codeName]).toEqual([85, 'IndexOptionsConflict']);
    err = await errorOf(() => coll.createIndex({ u2: 'hashed' }, { unique: true }));
    expect([err.code, err.errmsg]).toEqual([16764, 'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.']);
    err = await errorOf(() => coll.insertOne({ u: [1, 2] }));
    expect([err.code, err.errmsg]).toEqual([16766, 'Error: hashed indexes do not currently support array values. Found array at path: u']);
    expect(await coll.find({ $text: { $search: 'x' } }).toArray()).toEqual([]);
    err = await errorOf(() => coll.find({}).hint('text_idx').toArray());
    expect([err.code, err.errmsg]).toEqual([238, 'Queries hinting a text index are not supported by Mayfly yet']);
  });

  it('option errors carry mongod codes: 197, 67, 14, 85, 86, 72', async () => {
    const coll = h.db.collection('spec_errors');
    let err = await errorOf(() => h.db.command({ createIndexes: 'spec_errors', indexes: [{ key: { a: 1 }, name: 'a', bogus: 1 }] }));
    expect([err.code, err.codeName]).toEqual([197, 'InvalidIndexSpecificationOption']);
    await h.db.command({ createIndexes: 'spec_errors', indexes: [{ key: { z: 1 }, name: 'z', bogus: 1 }], ignoreUnknownIndexOptions: true });
    expect((await coll.indexes()).find((i) => i.name === 'z')).toEqual({ v: 2, key: { z: 1 }, name: 'z' });
    await coll.dropIndex('z');
    err = await errorOf(() => h.db.command({ createIndexes: 'spec_errors', indexes: [{ key: { a: 1 }, name: 'a_1', partialFilterExpression: { a: { $ne: 1 } } }] }));
    expect([err.code, err.errmsg]).toEqual([
      67,
      'Error in specification { key: { a: 1 }, name: "a_1", partialFilterExpression: { a: { $ne: 1 } }, v: 2 } :: caused by :: Expression not supported in partial index: $not\n    a $eq 1\n',
    ]);
    err = await errorOf(() => h.db.command({ createIndexes: 'spec_errors', indexes: [{ key: { a: 1 }, name: 'a_1', hidden: 1 }] }));
    expect([err.code, err.errmsg]).toEqual([14, 'Error in specification { key: { a: 1 }, name: "a_1", hidden: 1 } :: caused by :: The field \'hidden\' must be a bool, but got int']);
    err = await errorOf(() => coll.createIndex({ _id: 1 }, { hidden: true }));
    expect(err.code).toBe(197);
    await coll.createIndex({ a: 1 });
    err = await errorOf(() => coll.createIndex({ a: 1 }, { name: 'a_1', unique: true }));
    expect([err.code, err.codeName]).toEqual([86, 'IndexKeySpecsConflict']);
    await coll.createIndex({ a: 1 }, { name: 'a_unique', unique: true });
    err = await errorOf(() => h.db.command({ dropIndexes: 'spec_errors', index: { a: 1 } }));
    expect([err.code, err.codeName]).toEqual([181, 'AmbiguousIndexKeyPattern']);
    expect(err.errmsg).toBe(
      `2 indexes found for key: { a: 1 }, identify by name instead. Conflicting indexes: { v: 2, key: { a: 1 }, name: "a_1" }, { v: 2, key: { a: 1 }, name: "a_unique", unique: true }`,
    );
    expect(await h.db.command({ dropIndexes: 'spec_errors', index: ['a_1', 'a_unique'] })).toEqual({ nIndexesWas: 3, ok: 1 });
    err = await errorOf(() => h.db.command({ dropIndexes: 'spec_errors', index: { _id: 1 } }));
    expect([err.code, err.errmsg]).toEqual([72, 'cannot drop _id index']);
  });
});

describe('what each kind enforces', () => {
  it('unique single and compound keys, missing fields as null, in inserts and updates', async () => {
    const coll = h.db.collection('uniq');
    await coll.createIndex({ a: 1 }, { unique: true });
    await coll.insertOne({ _id: 1 });
    let err = await errorOf(() => coll.insertOne({ _id: 2 }));
    expect([err.code, err.errmsg, err.keyPattern, err.keyValue]).toEqual([
      11000,
      `E11000 duplicate key error collection: ${h.db.databaseName}.uniq index: a_1 dup key: { a: null }`,
      { a: 1 },
      { a: null },
    ]);
    await coll.insertOne({ _id: 3, a: [1, 2] });
    err = await errorOf(() => coll.insertOne({ _id: 4, a: 2 }));
    expect(err.errmsg).toBe(`E11000 duplicate key error collection: ${h.db.databaseName}.uniq index: a_1 dup key: { a: 2 }`);
    await coll.insertOne({ _id: 5, a: 5 });
    err = await errorOf(() => coll.updateOne({ _id: 5 }, { $set: { a: 1.0 } }));
    expect([err.code, err.keyValue]).toEqual([11000, { a: 1 }]);
    await coll.updateOne({ _id: 3 }, { $set: { a: [7] } });
    await coll.updateOne({ _id: 5 }, { $set: { a: 1 } });
    expect((await coll.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d.a)).toEqual([undefined, [7], 1]);

    const pairs = h.db.collection('uniq_pairs');
    await pairs.createIndex({ a: 1, b: -1 }, { unique: true });
    await pairs.insertMany([{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 2 }]);
    err = await errorOf(() => pairs.insertOne({ a: 2, b: null }));
    expect([err.errmsg, err.keyPattern]).toEqual([`E11000 duplicate key error collection: ${h.db.databaseName}.uniq_pairs index: a_1_b_-1 dup key: { a: 2, b: null }`, { a: 1, b: -1 }]);
  });

  it('sparse unique allows any number of documents without the field; partial unique only constrains matching ones', async () => {
    const sparse = h.db.collection('uniq_sparse');
    await sparse.createIndex({ a: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3, a: 1 }]);
    expect((await errorOf(() => sparse.insertOne({ a: 1 }))).code).toBe(11000);
    await sparse.insertOne({ _id: 9, a: null });
    const nullDup = await errorOf(() => sparse.insertOne({ _id: 10, a: null }));
    expect([nullDup.code, nullDup.keyValue]).toEqual([11000, { a: null }]);
    const partial = h.db.collection('uniq_partial');
    await partial.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await partial.insertMany([{ email: 'x', active: false }, { email: 'x', active: false }, { email: 'x', active: true }]);
    const err = await errorOf(() => partial.insertOne({ email: 'x', active: true }));
    expect(err.errmsg).toBe(`E11000 duplicate key error collection: ${h.db.databaseName}.uniq_partial index: email_1 dup key: { email: "x" }`);
    expect(await partial.countDocuments({ email: 'x' })).toBe(3);
  });

  it('building a unique index over duplicates fails with 11000 and leaves no index; a new collection is not left behind', async () => {
    const coll = h.db.collection('build_dups');
    await coll.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }, { _id: 3, a: 1 }]);
    const err = await errorOf(() => h.db.command({ createIndexes: 'build_dups', indexes: [{ key: { b: 1 }, name: 'b_1' }, { key: { a: 1 }, name: 'a_1', unique: true }] }));
    expect([err.code, err.errmsg]).toEqual([11000, `E11000 duplicate key error collection: ${h.db.databaseName}.build_dups index: a_1 dup key: { a: 1 }`]);
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_']);
    await coll.insertOne({ _id: 4, a: 1 });
    const fresh = await errorOf(() => h.db.command({ createIndexes: 'never_created', indexes: [{ key: { a: 1 }, name: 'a' }, { key: { a: 1 }, name: 'a2' }] }));
    expect([fresh.code, fresh.errmsg]).toEqual([85, 'Index already exists with a different name: a']);
    expect((await h.db.listCollections({ name: 'never_created' }).toArray()).length).toBe(0);
  });

  it('multikey: array elements are keys; two arrays in one compound key are refused (171)', async () => {
    const coll = h.db.collection('multikey');
    await coll.createIndex({ tags: 1, n: 1 });
    await coll.insertMany([
      { _id: 1, tags: ['a', 'b'], n: 1 },
      { _id: 2, tags: ['b', 'c'], n: 2 },
      { _id: 3, tags: [], n: 3 },
      { _id: 4, n: 4 },
    ]);
    expect((await coll.find({ tags: 'b' }).toArray()).map((d) => d._id)).toEqual([1, 2]);
    expect((await coll.find({ tags: { $in: ['a', 'c'] } }).toArray()).map((d) => d._id)).toEqual([1, 2]);
    expect((await coll.find({ tags: [] }).toArray()).map((d) => d._id)).toEqual([3]);
    expect(await planStages('multikey', { tags: 'b' })).toEqual(['FETCH', 'IXSCAN tags_1_n_1']);
    let err = await errorOf(() => coll.insertOne({ _id: 5, tags: ['x'], n: [1, 2] }));
    expect([err.code, err.errmsg]).toEqual([171, 'cannot index parallel arrays [n] [tags]']);
    err = await errorOf(() => coll.updateOne({ _id: 4 }, { $set: { tags: ['q'], n: [5] } }));
    expect(err.code).toBe(171);
    expect(await coll.findOne({ _id: 4 })).toEqual({ _id: 4, n: 4 });
    const shared = h.db.collection('multikey_shared');
    await shared.insertOne({ a: [{ b: 1, c: 2 }, { b: 3, c: 4 }] });
    await shared.createIndex({ 'a.b': 1, 'a.c': 1 });
    expect(await shared.countDocuments({ 'a.b': 1, 'a.c': 4 })).toBe(1);
    const parallel = h.db.collection('multikey_parallel');
    await parallel.insertOne({ x: [1], y: [2] });
    err = await errorOf(() => parallel.createIndex({ x: 1, y: 1 }));
    expect([err.code, err.errmsg]).toEqual([171, 'cannot index parallel arrays [y] [x]']);
    expect((await parallel.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('a hidden index is maintained but not used nor hintable until unhidden', async () => {
    const coll = h.db.collection('hidden');
    await coll.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, a: i })));
    await coll.createIndex({ a: 1 }, { hidden: true });
    expect(await planStages('hidden', { a: 5 })).toEqual(['COLLSCAN']);
    const err = await errorOf(() => coll.find({ a: 5 }).hint('a_1').toArray());
    expect([err.code, err.errmsg]).toEqual([2, 'hint provided does not correspond to an existing index']);
    await coll.insertOne({ _id: 100, a: 5 });
    await h.db.command({ collMod: 'hidden', index: { name: 'a_1', hidden: false } });
    expect(await planStages('hidden', { a: 5 })).toEqual(['FETCH', 'IXSCAN a_1']);
    expect((await coll.find({ a: 5 }).toArray()).map((d) => d._id)).toEqual([5, 100]);
  });
});

describe('index maintenance under TTL', () => {
  it('documents a native TTL index deletes leave every index', async () => {
    const th = await startHarness({ compat: 'mongodb', clock: 'manual' });
    try {
      const coll = th.db.collection('ttl_maint');
      await coll.createIndex({ at: 1 }, { expireAfterSeconds: 10 });
      await coll.createIndex({ k: 1 });
      const base = ((await th.client.db('admin').command({ mayflyClock: 1 })) as Document).now as Date;
      await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, k: i % 2, at: i < 6 ? new Date(0) : base })));
      await th.client.db('admin').command({ mayflyAdvanceClock: 1 });
      await th.client.db('admin').command({ mayflyRunTtlPass: 1 });
      expect((await coll.find({ k: 1 }).toArray()).map((d) => d._id)).toEqual([7, 9]);
      const explain = await coll.find({ k: 1 }).explain('executionStats');
      expect([explain.executionStats.totalKeysExamined, explain.executionStats.totalDocsExamined]).toEqual([2, 2]);
    } finally {
      await th.close();
    }
  });

  it('the Cosmos {_ts: 1} TTL index keeps no entries and never serves queries', async () => {
    const ch = await startHarness({ compat: 'cosmos', clock: 'manual' });
    try {
      const coll = ch.db.collection('cosmos_ts');
      await coll.createIndex({ _ts: 1 }, { expireAfterSeconds: 3600 });
      await coll.insertMany([{ _id: 1, _ts: 5 }, { _id: 2 }]);
      const explain = await coll.find({ _ts: 5 }).explain('executionStats');
      expect(explain.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
      expect((await coll.find({ _ts: 5 }).toArray()).map((d) => d._id)).toEqual([1]);
      const err = await errorOf(() => coll.find({}).hint('_ts_1').toArray());
      expect([err.code, err.errmsg]).toEqual([238, "Queries hinting the index '_ts_1' on the system last-modified time are not supported by Mayfly yet"]);
    } finally {
      await ch.close();
    }
  });
});
