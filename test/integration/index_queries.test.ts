/**
 * Queries served by indexes, checked by their results and by explain: which plan was chosen,
 * with which bounds, and how many keys and documents it examined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection, Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDocument } from './harness.js';

let h: Harness;
let people: Collection<TestDocument>;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  people = h.db.collection('people');
  // 100 people: age 20..39 (5 each), city cycling over 4 names, score = _id.
  await people.insertMany(
    Array.from({ length: 100 }, (_, i) => ({ _id: i, age: 20 + (i % 20), city: ['Oslo', 'Rome', 'Lima', 'Kyiv'][i % 4], score: i })),
  );
  await people.createIndex({ age: 1 });
  await people.createIndex({ city: 1, score: -1 });
});
afterAll(async () => {
  await h.close();
});

/** The executed explain of a find. */
async function explain(filter: Document, options: Document = {}): Promise<Document> {
  return h.db.command({ explain: { find: 'people', filter, ...options }, verbosity: 'executionStats' });
}

/** Stage names (and index names) from the root of the executed plan down. */
function stages(explained: Document): string[] {
  const out: string[] = [];
  let stage = explained.executionStats.executionStages as Document | undefined;
  while (stage) {
    out.push(stage.indexName ? `${stage.stage} ${stage.indexName}` : (stage.stage as string));
    stage = stage.inputStage as Document | undefined;
  }
  return out;
}

/** The IXSCAN stage of an executed plan. */
function ixscan(explained: Document): Document {
  let stage = explained.executionStats.executionStages as Document | undefined;
  while (stage && stage.stage !== 'IXSCAN') stage = stage.inputStage as Document | undefined;
  return stage!;
}

function counters(explained: Document): [number, number, number] {
  const s = explained.executionStats;
  return [s.nReturned, s.totalKeysExamined, s.totalDocsExamined];
}

describe('queries served by an index', () => {
  it('equality examines only the matching keys and documents', async () => {
    const ids = (await people.find({ age: 25 }).toArray()).map((d) => d._id);
    expect(ids).toEqual([5, 25, 45, 65, 85]);
    const e = await explain({ age: 25 });
    expect(stages(e)).toEqual(['FETCH', 'IXSCAN age_1']);
    expect(ixscan(e).indexBounds).toEqual({ age: ['[25, 25]'] });
    expect(counters(e)).toEqual([5, 5, 5]);
  });

  it('a range examines the keys in range only, plus nothing past its end', async () => {
    const ids = (await people.find({ age: { $gt: 37, $lte: 39 } }).toArray()).map((d) => d._id);
    expect(ids).toEqual([18, 38, 58, 78, 98, 19, 39, 59, 79, 99]);
    const e = await explain({ age: { $gt: 37, $lte: 39 } });
    expect(ixscan(e).indexBounds).toEqual({ age: ['(37, 39]'] });
    expect(counters(e)).toEqual([10, 10, 10]);
    expect([ixscan(e).seeks, ixscan(e).keysExamined]).toEqual([1, 10]);
  });

  it('$in is a set of points; the key after each point is examined before seeking on', async () => {
    const e = await explain({ age: { $in: [39, 21] } });
    expect(ixscan(e).indexBounds).toEqual({ age: ['[21, 21]', '[39, 39]'] });
    expect(counters(e)).toEqual([10, 11, 10]);
    expect(ixscan(e).seeks).toBe(2);
  });

  it('a compound index serves a prefix, with the second field bounded too', async () => {
    const rome = await people.find({ city: 'Rome', score: { $lt: 20 } }).toArray();
    expect(rome.map((d) => d._id)).toEqual([17, 13, 9, 5, 1]);
    const e = await explain({ city: 'Rome', score: { $lt: 20 } });
    expect(stages(e)).toEqual(['FETCH', 'IXSCAN city_1_score_-1']);
    expect(ixscan(e).indexBounds).toEqual({ city: ['["Rome", "Rome"]'], score: ['(20, -inf.0]'] });
    expect(counters(e)).toEqual([5, 5, 5]);
    const prefixOnly = await explain({ city: 'Lima' });
    expect(ixscan(prefixOnly).indexBounds).toEqual({ city: ['["Lima", "Lima"]'], score: ['[MaxKey, MinKey]'] });
    expect(counters(prefixOnly)).toEqual([25, 25, 25]);
  });

  it('a field without an index, or only the second field of a compound index, is a collection scan', async () => {
    expect(stages(await explain({ score: 3 }))).toEqual(['COLLSCAN']);
    expect(counters(await explain({ score: 3 }))).toEqual([1, 0, 100]);
  });

  it('the more selective index wins, and its FETCH keeps the other predicate as a filter', async () => {
    const e = await explain({ age: { $gte: 20 }, city: 'Kyiv', score: { $gte: 90 } });
    expect(stages(e)).toEqual(['FETCH', 'IXSCAN city_1_score_-1']);
    expect(e.executionStats.executionStages.filter).toEqual({ age: { $gte: 20 } });
    expect(counters(e)).toEqual([3, 3, 3]);
    expect(e.queryPlanner.parsedQuery).toEqual({ $and: [{ city: { $eq: 'Kyiv' } }, { age: { $gte: 20 } }, { score: { $gte: 90 } }] });
  });
});

describe('sorts served by an index', () => {
  it('no SORT stage when the index order is the sort order, forwards or backwards', async () => {
    const top = await people.find({ city: 'Oslo' }).sort({ score: -1 }).limit(3).toArray();
    expect(top.map((d) => d._id)).toEqual([96, 92, 88]);
    const e = await explain({ city: 'Oslo' }, { sort: { score: -1 }, limit: 3 });
    expect(stages(e)).toEqual(['LIMIT', 'FETCH', 'IXSCAN city_1_score_-1']);
    expect(counters(e)).toEqual([3, 3, 3]);
    const asc = await explain({ city: 'Oslo' }, { sort: { score: 1 }, limit: 2 });
    expect(ixscan(asc).direction).toBe('backward');
    expect(ixscan(asc).indexBounds).toEqual({ city: ['["Oslo", "Oslo"]'], score: ['[MinKey, MaxKey]'] });
    expect((await people.find({ city: 'Oslo' }).sort({ score: 1 }).limit(2).toArray()).map((d) => d._id)).toEqual([0, 4]);
  });

  it('a sort on an indexed field uses the index even without a filter; otherwise a blocking SORT', async () => {
    const e = await explain({}, { sort: { age: -1 }, limit: 2 });
    expect(stages(e)).toEqual(['LIMIT', 'FETCH', 'IXSCAN age_1']);
    expect(ixscan(e).direction).toBe('backward');
    expect(counters(e)).toEqual([2, 2, 2]);
    const blocking = await explain({ age: 30 }, { sort: { score: -1 }, skip: 1, limit: 2 });
    expect(stages(blocking)).toEqual(['SKIP', 'SORT', 'FETCH', 'IXSCAN age_1']);
    const sort = blocking.executionStats.executionStages.inputStage;
    expect([sort.sortPattern, sort.limitAmount, sort.memLimit, sort.type]).toEqual([{ score: -1 }, 3, 104857600, 'simple']);
    expect((await people.find({ age: 30 }).sort({ score: -1 }).skip(1).limit(2).toArray()).map((d) => d._id)).toEqual([70, 50]);
  });

  it('_id ranges and sorts use the _id_ index', async () => {
    const e = await explain({ _id: { $gte: 95 } }, { sort: { _id: -1 } });
    expect(stages(e)).toEqual(['FETCH', 'IXSCAN _id_']);
    expect(counters(e)).toEqual([5, 5, 5]);
    expect((await people.find({ _id: { $gte: 95 } }).sort({ _id: -1 }).toArray()).map((d) => d._id)).toEqual([99, 98, 97, 96, 95]);
  });
});

describe('hint, min and max', () => {
  it('hint by name or key pattern forces that index; $natural forces a collection scan', async () => {
    const byName = await explain({ age: 25, city: 'Rome' }, { hint: 'city_1_score_-1' });
    expect(stages(byName)).toEqual(['FETCH', 'IXSCAN city_1_score_-1']);
    expect(byName.executionStats.executionStages.filter).toEqual({ age: { $eq: 25 } });
    const byKey = await explain({ age: 25 }, { hint: { city: 1, score: -1 } });
    expect(ixscan(byKey).indexBounds).toEqual({ city: ['[MinKey, MaxKey]'], score: ['[MaxKey, MinKey]'] });
    expect(counters(byKey)).toEqual([5, 100, 100]);
    expect((await people.find({ age: 25 }).hint({ city: 1, score: -1 }).toArray()).map((d) => d._id)).toEqual([85, 65, 45, 25, 5]);
    const natural = await explain({ age: 25 }, { hint: { $natural: -1 } });
    expect(stages(natural)).toEqual(['COLLSCAN']);
    expect(natural.executionStats.executionStages.direction).toBe('backward');
  });

  it('a hint naming no index is 2 BadValue, in find, count, distinct, update and delete', async () => {
    const message = 'hint provided does not correspond to an existing index';
    let err = await errorOf(() => people.find({}).hint('nope').toArray());
    expect([err.code, err.errmsg]).toEqual([2, message]);
    err = await errorOf(() => people.find({}).hint({ nope: 1 }).toArray());
    expect([err.code, err.errmsg]).toEqual([2, message]);
    err = await errorOf(() => h.db.command({ count: 'people', query: {}, hint: 'nope' }));
    expect([err.code, err.errmsg]).toEqual([2, message]);
    err = await errorOf(() => h.db.command({ distinct: 'people', key: 'age', hint: 'nope' }));
    expect([err.code, err.errmsg]).toEqual([2, message]);
    err = await errorOf(() => h.db.command({ explain: { find: 'people', hint: 'age_-1' } }));
    expect([err.code, err.errmsg]).toEqual([2, message]);
    const update = await h.db.command({ update: 'people', updates: [{ q: {}, u: { $set: { x: 1 } }, hint: 'nope' }] });
    expect(update.writeErrors).toEqual([{ index: 0, code: 2, errmsg: message }]);
    const del = await h.db.command({ delete: 'people', deletes: [{ q: { _id: -1 }, limit: 1, hint: { nope: 1 } }] });
    expect(del.writeErrors).toEqual([{ index: 0, code: 2, errmsg: message }]);
  });

  it('min/max scan the hinted index from min (inclusive) to max (exclusive)', async () => {
    const docs = await people.find({}).hint({ age: 1 }).min({ age: 38 }).max({ age: 39 }).toArray();
    expect(docs.map((d) => d._id)).toEqual([18, 38, 58, 78, 98]);
    const e = await explain({}, { hint: 'age_1', min: { age: 38 }, max: { age: 39 } });
    expect(ixscan(e).indexBounds).toEqual({});
    expect(counters(e)).toEqual([5, 5, 5]);
    let err = await errorOf(() => people.find({}).min({ age: 38 }).toArray());
    expect([err.code, err.codeName, err.errmsg]).toEqual([291, 'NoQueryExecutionPlans', 'When using min()/max() a hint of which index to use must be provided']);
    err = await errorOf(() => people.find({}).hint('age_1').min({ city: 'x' }).toArray());
    expect([err.code, err.errmsg]).toEqual([51174, 'The index chosen is not compatible with min/max']);
    err = await errorOf(() => people.find({}).hint('age_1').min({ age: 1 }).max({ city: 'x' }).toArray());
    expect([err.code, err.errmsg]).toEqual([51176, 'min and max must have the same field names']);
  });
});

describe('index maintenance on writes', () => {
  it('inserts, updates and deletes keep every index in step with the documents', async () => {
    const coll = h.db.collection('writes');
    await coll.createIndex({ k: 1 });
    await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, k: i })));
    await coll.updateMany({ k: { $lt: 3 } }, { $inc: { k: 100 } });
    await coll.deleteMany({ k: { $gte: 8, $lt: 100 } });
    await coll.insertOne({ _id: 50, k: 5 });
    expect((await coll.find({ k: { $gte: 5 } }).sort({ k: 1 }).toArray()).map((d) => [d._id, d.k])).toEqual([
      [5, 5],
      [50, 5],
      [6, 6],
      [7, 7],
      [0, 100],
      [1, 101],
      [2, 102],
    ]);
    const e = await h.db.command({ explain: { find: 'writes', filter: { k: { $lt: 100 } } }, verbosity: 'executionStats' });
    expect([e.executionStats.nReturned, e.executionStats.totalKeysExamined]).toEqual([6, 6]);
  });

  it('an open cursor over an index sees writes made between batches without skipping or repeating', async () => {
    const coll = h.db.collection('cursor');
    await coll.createIndex({ k: 1 });
    await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, k: i * 10 })));
    const cursor = coll.find({ k: { $gte: 0 } }).sort({ k: 1 }).batchSize(3);
    const seen: unknown[] = [];
    for await (const doc of cursor) {
      seen.push(doc._id);
      if (doc._id === 2) {
        await coll.deleteOne({ _id: 6 });
        await coll.insertOne({ _id: 100, k: 55 });
        await coll.insertOne({ _id: 101, k: 5 });
      }
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 100, 7, 8, 9]);
  });
});
