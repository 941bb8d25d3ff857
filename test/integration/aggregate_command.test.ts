/**
 * The aggregate command end to end through the driver: maxTimeMS on the manual clock (the
 * budget spans the first batch and every getMore, idle time between batches excluded),
 * batchSize with getMore through streaming and blocking stages, the generic concerns
 * (readConcern, writeConcern) as a standalone answers them, and the system stages.
 */
import { Decimal128, Long, type Document } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorOf, seed, startHarness, withClockStep, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb', clock: 'manual' });
});

afterAll(async () => {
  await h.close();
});

beforeEach(async () => {
  await seed(h.db, 'c', Array.from({ length: 10 }, (_, i) => ({ _id: i, g: i % 3 })));
});

/** A command on the test database with Int64s kept (cursor ids go back to getMore as they came). */
function command(doc: Document): Promise<Document> {
  return h.db.command(doc, { promoteLongs: false });
}

describe('maxTimeMS', () => {
  it('a pipeline that works past its budget fails with 50 between documents', async () => {
    const err = await withClockStep(h, 10, () => errorOf(() => command({ aggregate: 'c', pipeline: [{ $sort: { g: 1 } }], cursor: {}, maxTimeMS: 25 })));
    expect([err.code, err.codeName, err.errmsg]).toEqual([50, 'MaxTimeMSExpired', 'PlanExecutor error during aggregation :: caused by :: operation exceeded time limit']);
  });

  it('count and distinct check it between the documents they read', async () => {
    const count = await withClockStep(h, 10, () => errorOf(() => command({ count: 'c', maxTimeMS: 30 })));
    expect([count.code, count.errmsg]).toEqual([50, 'operation exceeded time limit']);
    const distinct = await withClockStep(h, 10, () => errorOf(() => command({ distinct: 'c', key: 'g', maxTimeMS: 30 })));
    expect(distinct.code).toBe(50);
    expect((await withClockStep(h, 1, () => command({ count: 'c', maxTimeMS: 1000 }))).n).toBe(10);
  });

  it('a budget the work stays within returns everything; 0 is no limit', async () => {
    const within = await withClockStep(h, 1, () => command({ aggregate: 'c', pipeline: [{ $match: { g: 0 } }], cursor: {}, maxTimeMS: 1000 }));
    expect(within.cursor.firstBatch.map((d: { _id: number }) => d._id)).toEqual([0, 3, 6, 9]);
    const unlimited = await withClockStep(h, 1000, () => command({ aggregate: 'c', pipeline: [], cursor: {}, maxTimeMS: 0 }));
    expect(unlimited.cursor.firstBatch).toHaveLength(10);
  });

  it('idle time between batches does not count; the getMore that spends the rest fails and closes the cursor', async () => {
    const first = await command({ aggregate: 'c', pipeline: [], cursor: { batchSize: 2 }, maxTimeMS: 100 });
    expect(first.cursor.firstBatch.map((d: { _id: number }) => d._id)).toEqual([0, 1]);
    h.server.clock.advance(10_000); // idle: not counted
    const more = await command({ getMore: first.cursor.id, collection: 'c', batchSize: 2 });
    expect(more.cursor.nextBatch.map((d: { _id: number }) => d._id)).toEqual([2, 3]);
    const err = await withClockStep(h, 60, () => errorOf(() => command({ getMore: first.cursor.id, collection: 'c' })));
    expect([err.code, err.errmsg]).toEqual([50, 'PlanExecutor error during aggregation :: caused by :: operation exceeded time limit']);
    const gone = await errorOf(() => command({ getMore: first.cursor.id, collection: 'c' }));
    expect(gone.code).toBe(43);
  });
});

describe('allowDiskUse and the blocking sort memory limit', () => {
  it('with allowDiskUse false a sort past internalQueryMaxBlockingSortMemoryUsageBytes fails with 292; true or absent spills', async () => {
    const admin = h.client.db('admin');
    const was = await admin.command({ getParameter: 1, internalQueryMaxBlockingSortMemoryUsageBytes: 1 });
    expect(was.internalQueryMaxBlockingSortMemoryUsageBytes).toBe(104857600);
    await admin.command({ setParameter: 1, internalQueryMaxBlockingSortMemoryUsageBytes: 100 });
    try {
      const err = await errorOf(() => command({ aggregate: 'c', pipeline: [{ $sort: { g: -1 } }], cursor: {}, allowDiskUse: false }));
      expect([err.code, err.codeName, err.errmsg]).toEqual([
        292,
        'QueryExceededMemoryLimitNoDiskUseAllowed',
        'PlanExecutor error during aggregation :: caused by :: Sort exceeded memory limit of 100 bytes, but did not opt in to external sorting. Aborting operation. Pass allowDiskUse:true to opt in.',
      ]);
      for (const disk of [{ allowDiskUse: true }, {}]) {
        const ok = await command({ aggregate: 'c', pipeline: [{ $sort: { g: -1, _id: 1 } }], cursor: { batchSize: 2 }, ...disk });
        expect(ok.cursor.firstBatch).toEqual([{ _id: 2, g: 2 }, { _id: 5, g: 2 }]);
      }
      // A top-k sort holds only its k documents.
      const topK = await command({ aggregate: 'c', pipeline: [{ $sort: { _id: -1 } }, { $limit: 1 }], cursor: {}, allowDiskUse: false });
      expect(topK.cursor.firstBatch).toEqual([{ _id: 9, g: 0 }]);
    } finally {
      await admin.command({ setParameter: 1, internalQueryMaxBlockingSortMemoryUsageBytes: 104857600 });
    }
  });
});

describe('explain of a pipeline that makes its own documents', () => {
  it('lists its stages, with a queryShapeHash; executionStats counts what each returns, writing nothing', async () => {
    const pipeline = [{ $documents: [{ x: 1 }, { x: 2 }, { x: 3 }] }, { $match: { x: { $gt: 1 } } }];
    const planner = await h.db.command({ aggregate: 1, pipeline, explain: true });
    expect(planner.stages.map((s: Document) => Object.keys(s)[0])).toEqual(['$documents', '$match']);
    expect(planner.queryShapeHash).toMatch(/^[0-9A-F]{64}$/);
    const exec = await h.db.command({ explain: { aggregate: 1, pipeline, cursor: {} }, verbosity: 'executionStats' });
    expect(exec.stages.map((s: Document) => [Object.keys(s)[0], s.nReturned, s.executionTimeMillisEstimate])).toEqual([
      ['$documents', 3, 0],
      ['$match', 2, 0],
    ]);
  });
});

describe('batchSize and getMore', () => {
  it('streams through getMore in batches, the last one closing the cursor', async () => {
    const first = await command({ aggregate: 'c', pipeline: [{ $match: { g: { $ne: 2 } } }, { $project: { g: 0 } }], cursor: { batchSize: Long.fromNumber(3) } });
    expect(first.cursor.firstBatch).toEqual([{ _id: 0 }, { _id: 1 }, { _id: 3 }]);
    const more = await command({ getMore: first.cursor.id, collection: 'c', batchSize: 3 });
    expect(more.cursor.nextBatch).toEqual([{ _id: 4 }, { _id: 6 }, { _id: 7 }]);
    const last = await command({ getMore: first.cursor.id, collection: 'c' });
    expect([last.cursor.nextBatch, last.cursor.id.toString()]).toEqual([[{ _id: 9 }], '0']);
  });

  it('a blocking stage answers its first batch and the rest through getMore', async () => {
    const first = await command({ aggregate: 'c', pipeline: [{ $group: { _id: '$g', n: { $sum: 1 } } }, { $sort: { _id: -1 } }], cursor: { batchSize: 1 } });
    expect(first.cursor.firstBatch).toEqual([{ _id: 2, n: 3 }]);
    const more = await command({ getMore: first.cursor.id, collection: 'c' });
    expect(more.cursor.nextBatch).toEqual([{ _id: 1, n: 3 }, { _id: 0, n: 4 }]);
  });

  it('batchSize 0 opens a cursor even over no document; decimals round half to even; negatives are 2', async () => {
    const empty = await command({ aggregate: 'none', pipeline: [], cursor: { batchSize: 0 } });
    expect(empty.cursor.firstBatch).toEqual([]);
    expect(empty.cursor.id.toString()).not.toBe('0');
    const rounded = await command({ aggregate: 'c', pipeline: [], cursor: { batchSize: Decimal128.fromString('1.5') } });
    expect(rounded.cursor.firstBatch).toEqual([{ _id: 0, g: 0 }, { _id: 1, g: 1 }]);
    const err = await errorOf(() => command({ aggregate: 'c', pipeline: [], cursor: { batchSize: -1 } }));
    expect([err.code, err.errmsg]).toEqual([2, "BSON field 'batchSize' value must be >= 0, actual value '-1'"]);
  });
});

describe('readConcern and writeConcern on a standalone', () => {
  const run = (extra: Record<string, unknown>, pipeline: unknown[] = []) => errorOf(() => command({ aggregate: 'c', pipeline, cursor: {}, ...extra }));

  it('refuses linearizable and snapshot (123), cluster times (20), a stage limited to local (72)', async () => {
    expect((await run({ readConcern: { level: 'linearizable' } })).code).toBe(123);
    expect((await run({ readConcern: { level: 'snapshot' } })).errmsg).toBe('node needs to be a replica set member to use readConcern: snapshot');
    const ct = await run({ readConcern: { afterClusterTime: { $timestamp: { t: 1, i: 1 } } } as never });
    expect(ct.code).toBe(14); // an extended-JSON-shaped object is no Timestamp
    const stage = await errorOf(() => h.client.db('admin').command({ aggregate: 1, pipeline: [{ $currentOp: {} }], cursor: {}, readConcern: { level: 'majority' } }));
    expect([stage.code, stage.errmsg]).toEqual([
      72,
      'Command aggregate does not support { readConcern: { level: "majority", provenance: "clientSupplied" } } :: caused by :: Aggregation stage $currentOp cannot run with a readConcern other than \'local\', or in a multi-document transaction. Current readConcern: { level: "majority", provenance: "clientSupplied" }',
    ]);
    const out = await run({ readConcern: { level: 'linearizable' } }, [{ $out: 'o' }]);
    expect([out.code, out.errmsg]).toEqual([72, 'Command aggregate does not support { readConcern: { level: "linearizable", provenance: "clientSupplied" } } :: caused by :: $out cannot be used with a \'linearizable\' read concern level']);
  });

  it('takes a writeConcern of w 0 or 1 or majority, refuses w 2 (2); count and distinct refuse any (72)', async () => {
    const ok = await command({ aggregate: 'c', pipeline: [{ $limit: 1 }], cursor: {}, writeConcern: { w: 'majority', wtimeout: -1 } });
    expect(ok.cursor.firstBatch).toEqual([{ _id: 0, g: 0 }]);
    expect((await run({ writeConcern: { w: 2 } })).errmsg).toBe("cannot use 'w' > 1 when a host is not replicated");
    const count = await errorOf(() => command({ count: 'c', writeConcern: {} }));
    expect([count.code, count.errmsg]).toEqual([72, 'Command does not support writeConcern']);
    const distinct = await errorOf(() => command({ distinct: 'c', key: 'g', writeConcern: { w: 1 } }));
    expect(distinct.code).toBe(72);
    expect((await command({ distinct: 'c', key: 'g', writeConcern: null, readConcern: { level: 'available' } })).values).toEqual([0, 1, 2]);
  });
});

describe('system stages', () => {
  it('$indexStats counts the operations that used each index', async () => {
    await h.db.collection('c').createIndex({ g: 1 });
    await h.db.collection('c').find({ g: 1 }).toArray();
    await h.db.collection('c').find({ g: 2 }).toArray();
    const stats = await h.db.collection('c').aggregate([{ $indexStats: {} }, { $sort: { name: 1 } }], { promoteLongs: false }).toArray();
    expect(stats.map((s) => [s.name, s.key, s.accesses.ops, s.accesses.since instanceof Date, s.spec.name])).toEqual([
      ['_id_', { _id: 1 }, Long.fromNumber(0), true, '_id_'],
      ['g_1', { g: 1 }, Long.fromNumber(2), true, 'g_1'],
    ]);
  });

  it('$currentOp shows the running aggregate on admin only; $planCacheStats is an empty cache', async () => {
    const ops = await h.client.db('admin').aggregate([{ $currentOp: { allUsers: true } }, { $project: { type: 1, op: 1, ns: 1, active: 1, 'command.aggregate': 1 } }]).toArray();
    expect(ops).toEqual([{ type: 'op', active: true, op: 'command', ns: 'admin.$cmd.aggregate', command: { aggregate: 1 } }]);
    const elsewhere = await errorOf(() => h.db.aggregate([{ $currentOp: {} }]).toArray());
    expect([elsewhere.code, elsewhere.errmsg]).toEqual([73, "$currentOp must be run against the 'admin' database with {aggregate: 1}"]);
    expect(await h.db.collection('c').aggregate([{ $planCacheStats: {} }]).toArray()).toEqual([]);
  });
});
