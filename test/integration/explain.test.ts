/**
 * `explain` of find, count, distinct, update, delete, findAndModify and aggregate in mongod 8's
 * shape, at every verbosity, with the counters that show which plan ran and what it examined.
 * Writes are explained, never performed.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
let ns: string;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  ns = `${h.db.databaseName}.items`;
  await h.db.collection('items').insertMany(Array.from({ length: 12 }, (_, i) => ({ _id: i, kind: i % 3, qty: i * 10 })));
  await h.db.collection('items').createIndex({ kind: 1 });
});
afterAll(async () => {
  await h.close();
});

const SERVER_PARAMETERS = {
  internalQueryFacetBufferSizeBytes: 104857600,
  internalQueryFacetMaxOutputDocSizeBytes: 104857600,
  internalLookupStageIntermediateDocumentMaxSizeBytes: 104857600,
  internalDocumentSourceGroupMaxMemoryBytes: 104857600,
  internalQueryMaxBlockingSortMemoryUsageBytes: 104857600,
  internalQueryProhibitBlockingMergeOnMongoS: 0,
  internalQueryMaxAddToSetBytes: 104857600,
  internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 104857600,
  internalQueryFrameworkControl: 'trySbeRestricted',
  internalQueryPlannerIgnoreIndexWithCollationForRegex: 1,
};

const KIND_IXSCAN = {
  stage: 'IXSCAN',
  keyPattern: { kind: 1 },
  indexName: 'kind_1',
  isMultiKey: false,
  multiKeyPaths: { kind: [] },
  isUnique: false,
  isSparse: false,
  isPartial: false,
  indexVersion: 2,
  direction: 'forward',
  indexBounds: { kind: ['[1, 1]'] },
};

function common(works: number, advanced: number, needTime: number, isEOF = 1): Document {
  return { nReturned: advanced, executionTimeMillisEstimate: 0, works, advanced, needTime, needYield: 0, saveState: 0, restoreState: 0, isEOF };
}

describe('explain find', () => {
  it('queryPlanner and executionStats in mongod 8 shape, with the winning IXSCAN and its counters', async () => {
    const e = await h.db.command({ explain: { find: 'items', filter: { kind: 1, qty: { $gt: 50 } } }, verbosity: 'executionStats' });
    expect(Object.keys(e)).toEqual(['explainVersion', 'queryPlanner', 'executionStats', 'queryShapeHash', 'command', 'serverInfo', 'serverParameters', 'ok']);
    expect(e.explainVersion).toBe('1');
    const { queryHash, planCacheShapeHash, planCacheKey, ...planner } = e.queryPlanner;
    expect(queryHash).toMatch(/^[0-9A-F]{8}$/);
    expect(planCacheShapeHash).toBe(queryHash);
    expect(planCacheKey).toMatch(/^[0-9A-F]{8}$/);
    expect(e.queryShapeHash).toMatch(/^[0-9A-F]{64}$/);
    expect(planner).toEqual({
      namespace: ns,
      parsedQuery: { $and: [{ kind: { $eq: 1 } }, { qty: { $gt: 50 } }] },
      indexFilterSet: false,
      optimizationTimeMillis: 0,
      maxIndexedOrSolutionsReached: false,
      maxIndexedAndSolutionsReached: false,
      maxScansToExplodeReached: false,
      prunedSimilarIndexes: false,
      winningPlan: { isCached: false, stage: 'FETCH', filter: { qty: { $gt: 50 } }, inputStage: KIND_IXSCAN },
      rejectedPlans: [],
    });
    expect(e.executionStats).toEqual({
      executionSuccess: true,
      nReturned: 2,
      executionTimeMillis: 0,
      totalKeysExamined: 4,
      totalDocsExamined: 4,
      executionStages: {
        isCached: false,
        stage: 'FETCH',
        filter: { qty: { $gt: 50 } },
        ...common(5, 2, 2),
        docsExamined: 4,
        alreadyHasObj: 0,
        inputStage: { ...common(5, 4, 0), ...KIND_IXSCAN, keysExamined: 4, seeks: 1, dupsTested: 0, dupsDropped: 0 },
      },
    });
    expect(e.command).toEqual({ find: 'items', filter: { kind: 1, qty: { $gt: 50 } }, $db: h.db.databaseName });
    expect(e.serverInfo).toEqual({ host: hostname(), port: Number(new URL(h.server.getUri()).port), version: '8.0.0', gitVersion: 'mayfly' });
    expect(e.serverParameters).toEqual(SERVER_PARAMETERS);
  });

  it('the default verbosity is allPlansExecution; queryPlanner has no executionStats', async () => {
    const all = await h.db.command({ explain: { find: 'items', filter: { kind: 2 } } });
    expect(all.executionStats.allPlansExecution).toEqual([]);
    expect(all.executionStats.nReturned).toBe(4);
    const qp = await h.db.command({ explain: { find: 'items', filter: { kind: 2 } }, verbosity: 'queryPlanner' });
    expect(qp.executionStats).toBeUndefined();
    expect(qp.queryPlanner.winningPlan.inputStage.indexBounds).toEqual({ kind: ['[2, 2]'] });
  });

  it('COLLSCAN without an index; EXPRESS_IXSCAN for _id; EOF for a missing collection', async () => {
    const scan = await h.db.collection('items').find({ qty: 30 }).explain('executionStats');
    expect(scan.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'COLLSCAN', filter: { qty: { $eq: 30 } }, direction: 'forward' });
    expect(scan.executionStats.executionStages).toEqual({
      isCached: false,
      stage: 'COLLSCAN',
      filter: { qty: { $eq: 30 } },
      ...common(13, 1, 11),
      direction: 'forward',
      docsExamined: 12,
    });
    const byId = await h.db.collection('items').find({ _id: 7 }).explain('executionStats');
    expect(byId.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'EXPRESS_IXSCAN', keyPattern: '{ _id: 1 }', indexName: '_id_' });
    expect(byId.executionStats).toEqual({
      executionSuccess: true,
      nReturned: 1,
      executionTimeMillis: 0,
      totalKeysExamined: 1,
      totalDocsExamined: 1,
      executionStages: { isCached: false, stage: 'EXPRESS_IXSCAN', keyPattern: '{ _id: 1 }', indexName: '_id_', keysExamined: 1, docsExamined: 1, nReturned: 1 },
    });
    const missing = await h.db.collection('nothing_here').find({ a: 1 }).explain('executionStats');
    expect(missing.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'EOF' });
    expect([missing.executionStats.nReturned, missing.executionStats.totalDocsExamined]).toEqual([0, 0]);
  });

  it("EXPRESS_IXSCAN for a single equality under limit 1 on an index led by the field (mongod 8's express path)", async () => {
    const coll = h.db.collection('express');
    await coll.insertMany([{ _id: 0, a: 0, b: 0 }, { _id: 1, a: 'string' }, { _id: 2, a: { bar: 1 } }, { _id: 3, a: null }, { _id: 4, a: [1, 2, 3] }]);
    const stage = async (filter: Document, limit: number, projection?: Document): Promise<Document> => {
      const e = await coll.find(filter, { projection }).limit(limit).explain('executionStats');
      return e.executionStats.executionStages;
    };
    // No index: no express path.
    expect(await stage({ a: 1 }, 1)).toMatchObject({ stage: 'LIMIT', inputStage: { stage: 'COLLSCAN' } });
    await coll.createIndex({ a: 1, b: 1, c: 1 });
    await coll.createIndex({ a: 1, b: 1 });
    // The shortest index led by the field; a multikey document matches; keys and documents counted.
    expect(await stage({ a: 1 }, 1)).toEqual({
      isCached: false,
      stage: 'EXPRESS_IXSCAN',
      keyPattern: '{ a: 1, b: 1 }',
      indexName: 'a_1_b_1',
      keysExamined: 1,
      docsExamined: 1,
      nReturned: 1,
    });
    expect(await coll.find({ a: 1 }).limit(1).toArray()).toEqual([{ _id: 4, a: [1, 2, 3] }]);
    expect(await coll.findOne({ a: { bar: 1 } })).toEqual({ _id: 2, a: { bar: 1 } });
    expect(await stage({ a: 10 }, 1)).toMatchObject({ stage: 'EXPRESS_IXSCAN', keysExamined: 0, docsExamined: 0, nReturned: 0 });
    // Not express: no limit 1, a second predicate, a range, a projection, a field that is not the prefix.
    expect((await stage({ a: 1 }, 0)).stage).toBe('FETCH');
    expect((await stage({ a: 0, b: 0 }, 1)).stage).toBe('LIMIT');
    expect((await stage({ a: { $lte: -1 } }, 1)).stage).toBe('LIMIT');
    expect((await stage({ a: 0 }, 1, { a: 1, _id: 0 })).stage).toBe('PROJECTION_SIMPLE');
    expect((await stage({ b: 0 }, 1)).stage).toBe('LIMIT');
    // Partial indexes never; sparse ones only for a non-null value.
    await coll.dropIndexes();
    await coll.createIndex({ a: 1 }, { partialFilterExpression: { a: { $lt: 1 } } });
    expect((await stage({ a: 0 }, 1)).stage).toBe('LIMIT');
    await coll.dropIndexes();
    await coll.createIndex({ a: 1 }, { sparse: true });
    expect((await stage({ a: 0 }, 1)).stage).toBe('EXPRESS_IXSCAN');
    expect((await stage({ a: null }, 1)).stage).toBe('LIMIT');
    expect(await coll.find({ a: null }).limit(1).toArray()).toEqual([{ _id: 3, a: null }]);
  });

  it('sort, skip, limit and projection stages', async () => {
    const e = await h.db
      .collection('items')
      .find({ kind: 1 }, { projection: { qty: 1 } })
      .sort({ qty: -1 })
      .skip(1)
      .limit(2)
      .explain('executionStats');
    const projection = e.executionStats.executionStages;
    expect([projection.stage, projection.transformBy, projection.nReturned]).toEqual(['PROJECTION_SIMPLE', { qty: 1 }, 2]);
    const skip = projection.inputStage;
    expect([skip.stage, skip.skipAmount, skip.nReturned]).toEqual(['SKIP', 1, 2]);
    const sort = skip.inputStage;
    expect([sort.stage, sort.sortPattern, sort.limitAmount, sort.nReturned, sort.usedDisk, sort.spills]).toEqual(['SORT', { qty: -1 }, 3, 3, false, 0]);
    expect(sort.inputStage.stage).toBe('FETCH');
  });
});

describe('explain of the other commands', () => {
  it('count: COUNT over the plan, or RECORD_STORE_FAST_COUNT without a filter', async () => {
    const e = await h.db.command({ explain: { count: 'items', query: { kind: 1 }, skip: 1 }, verbosity: 'executionStats' });
    expect(e.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'COUNT', inputStage: { stage: 'FETCH', inputStage: KIND_IXSCAN } });
    const count = e.executionStats.executionStages;
    expect([count.stage, count.nCounted, count.nSkipped, count.nReturned]).toEqual(['COUNT', 3, 1, 0]);
    expect([e.executionStats.totalKeysExamined, e.executionStats.totalDocsExamined]).toEqual([4, 4]);
    const fast = await h.db.command({ explain: { count: 'items' }, verbosity: 'executionStats' });
    expect(fast.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'RECORD_STORE_FAST_COUNT' });
    expect([fast.executionStats.executionStages.nCounted, fast.executionStats.executionStages.nSkipped]).toEqual([12, 0]);
  });

  it('distinct: the plan of its query', async () => {
    const e = await h.db.command({ explain: { distinct: 'items', key: 'qty', query: { kind: 0 } }, verbosity: 'executionStats' });
    expect(e.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'FETCH', inputStage: { ...KIND_IXSCAN, indexBounds: { kind: ['[0, 0]'] } } });
    expect(e.executionStats.nReturned).toBe(4);
    expect(e.command).toEqual({ distinct: 'items', key: 'qty', query: { kind: 0 }, $db: h.db.databaseName });
  });

  it('update: UPDATE with nMatched/nWouldModify/nWouldUpsert, and nothing is written', async () => {
    const e = await h.db.command({
      explain: { update: 'items', updates: [{ q: { kind: 1 }, u: { $set: { qty: 40 } }, multi: true }] },
      verbosity: 'executionStats',
    });
    expect(e.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'UPDATE', inputStage: { stage: 'FETCH', inputStage: KIND_IXSCAN } });
    const u = e.executionStats.executionStages;
    expect([u.stage, u.nMatched, u.nWouldModify, u.nWouldUpsert, u.nReturned]).toEqual(['UPDATE', 4, 3, 0, 0]);
    expect(await h.db.collection('items').countDocuments({ qty: 40 })).toBe(1);
    const upsert = await h.db.command({ explain: { update: 'items', updates: [{ q: { kind: 9 }, u: { $set: { a: 1 } }, upsert: true }] }, verbosity: 'executionStats' });
    expect([upsert.executionStats.executionStages.nMatched, upsert.executionStats.executionStages.nWouldUpsert]).toEqual([0, 1]);
    const byId = await h.db.command({ explain: { update: 'items', updates: [{ q: { _id: 3 }, u: { $inc: { qty: 1 } } }] }, verbosity: 'executionStats' });
    expect(byId.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'EXPRESS_UPDATE', keyPattern: '{ _id: 1 }', indexName: '_id_' });
    expect(byId.executionStats.executionStages).toEqual({
      isCached: false,
      stage: 'EXPRESS_UPDATE',
      keyPattern: '{ _id: 1 }',
      indexName: '_id_',
      nReturned: 0,
      executionTimeMillisEstimate: 0,
      keysExamined: 1,
      docsExamined: 1,
      nWouldModify: 1,
      nWouldUpsert: 0,
      nWouldDelete: 0,
    });
    expect((await h.db.collection('items').findOne({ _id: 3 }))!.qty).toBe(30);
    const err = await errorOf(() => h.db.command({ explain: { update: 'items', updates: [{ q: {}, u: { $set: { a: 1 } } }, { q: {}, u: { $set: { a: 2 } } }] } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([16, 'InvalidLength', 'explained write batches must be of size 1']);
  });

  it('delete: DELETE with nWouldDelete, EXPRESS_DELETE by _id, and nothing is deleted', async () => {
    const e = await h.db.command({ explain: { delete: 'items', deletes: [{ q: { kind: 1 }, limit: 0 }] }, verbosity: 'executionStats' });
    expect(e.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'DELETE', inputStage: { stage: 'FETCH', inputStage: KIND_IXSCAN } });
    expect(e.executionStats.executionStages.nWouldDelete).toBe(4);
    const one = await h.db.command({ explain: { delete: 'items', deletes: [{ q: { kind: 1 }, limit: 1 }] }, verbosity: 'executionStats' });
    expect(one.executionStats.executionStages.nWouldDelete).toBe(1);
    const byId = await h.db.command({ explain: { delete: 'items', deletes: [{ q: { _id: 4 }, limit: 1 }] }, verbosity: 'executionStats' });
    expect(byId.queryPlanner.winningPlan.stage).toBe('EXPRESS_DELETE');
    expect(byId.executionStats.executionStages.nWouldDelete).toBe(1);
    expect(await h.db.collection('items').countDocuments()).toBe(12);
  });

  it('findAndModify: UPDATE or DELETE over the plan (a sort becomes SORT with limit 1)', async () => {
    const e = await h.db.command({
      explain: { findAndModify: 'items', query: { kind: 2 }, sort: { qty: -1 }, update: { $inc: { qty: 1 } } },
      verbosity: 'executionStats',
    });
    expect(e.queryPlanner.winningPlan).toEqual({
      isCached: false,
      stage: 'UPDATE',
      inputStage: {
        stage: 'SORT',
        sortPattern: { qty: -1 },
        memLimit: 104857600,
        limitAmount: 1,
        type: 'simple',
        inputStage: { stage: 'FETCH', inputStage: { ...KIND_IXSCAN, indexBounds: { kind: ['[2, 2]'] } } },
      },
    });
    expect([e.executionStats.executionStages.nMatched, e.executionStats.executionStages.nWouldModify]).toEqual([1, 1]);
    const remove = await h.db.command({ explain: { findAndModify: 'items', query: { kind: 2 }, remove: true }, verbosity: 'executionStats' });
    expect([remove.queryPlanner.winningPlan.stage, remove.executionStats.executionStages.nWouldDelete]).toEqual(['DELETE', 1]);
    expect(await h.db.collection('items').countDocuments({ kind: 2 })).toBe(4);
  });

  it('aggregate: a pipeline the query layer absorbs explains like find; otherwise $cursor then the stages', async () => {
    const absorbed = await h.db.collection('items').aggregate([{ $match: { kind: 1 } }, { $sort: { qty: 1 } }, { $limit: 2 }]).explain('executionStats');
    expect(Object.keys(absorbed)).toEqual(['explainVersion', 'queryPlanner', 'executionStats', 'queryShapeHash', 'serverInfo', 'serverParameters', 'command', 'ok']);
    expect(absorbed.queryPlanner.winningPlan.stage).toBe('SORT');
    expect(absorbed.executionStats.nReturned).toBe(2);
    const staged = await h.db
      .collection('items')
      .aggregate([{ $match: { kind: 1 } }, { $group: { _id: '$kind', n: { $sum: 1 } } }])
      .explain('executionStats');
    expect(Object.keys(staged)).toEqual(['explainVersion', 'stages', 'queryShapeHash', 'serverInfo', 'serverParameters', 'command', 'ok']);
    expect(staged.stages[0].$cursor.queryPlanner.winningPlan).toEqual({ isCached: false, stage: 'FETCH', inputStage: KIND_IXSCAN });
    expect([staged.stages[0].nReturned, staged.stages[0].$cursor.executionStats.totalKeysExamined]).toEqual([4, 4]);
    expect(staged.stages[1]).toEqual({ $group: { _id: '$kind', n: { $sum: 1 } }, nReturned: 1, executionTimeMillisEstimate: 0 });
    const inline = await h.db.command({ aggregate: 'items', pipeline: [{ $match: { kind: 0 } }, { $project: { qty: 1 } }], explain: true });
    expect(inline.stages[0]).toEqual({ $cursor: { queryPlanner: expect.objectContaining({ winningPlan: { isCached: false, stage: 'FETCH', inputStage: { ...KIND_IXSCAN, indexBounds: { kind: ['[0, 0]'] } } } }) } });
    expect(inline.stages[1]).toEqual({ $project: { qty: 1 } });
    expect(inline.command).toEqual({ aggregate: 'items', pipeline: [{ $match: { kind: 0 } }, { $project: { qty: 1 } }], $db: h.db.databaseName });
  });
});

describe('explain errors', () => {
  it('verbosity, unknown and non-explainable commands, and the inner command’s own errors', async () => {
    let err = await errorOf(() => h.db.command({ explain: { find: 'items' }, verbosity: 'bogus' }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([2, 'BadValue', "Enumeration value 'bogus' for field 'explain.verbosity' is not a valid value."]);
    err = await errorOf(() => h.db.command({ explain: { nosuch: 'items' } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([59, 'CommandNotFound', 'Explain failed due to unknown command: nosuch']);
    err = await errorOf(() => h.db.command({ explain: { insert: 'items', documents: [{}] } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([20, 'IllegalOperation', 'Cannot explain cmd: insert']);
    err = await errorOf(() => h.db.command({ explain: { find: 'items', bogus: 1 } }));
    expect([err.code, err.errmsg]).toEqual([40415, "BSON field 'FindCommandRequest.bogus' is an unknown field."]);
    err = await errorOf(() => h.db.command({ explain: { find: 'items', filter: { a: { $bogus: 1 } } } }));
    expect([err.code, err.errmsg]).toEqual([2, 'unknown operator: $bogus']);
  });
});
