/**
 * Wildcard indexes (`{"$**": 1}`, `{"a.$**": 1}`, `wildcardProjection`, compound wildcard):
 * their keys kept in step with writes, queries through a hint or chosen by the planner, the same
 * results as a collection scan, explain's expanded key pattern and bounds, and mongod's errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Collection, Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDocument } from './harness.js';

let h: Harness;
let c: Collection<TestDocument>;
let n = 0;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  c = h.db.collection(`wc${n++}`);
});

/** The winning plan's IXSCAN (below FETCH). */
async function ixscan(filter: Document, options: Document = {}): Promise<Document> {
  const out = await h.db.command({ explain: { find: c.collectionName, filter, ...options }, verbosity: 'executionStats' });
  let stage = out.executionStats.executionStages as Document;
  while (stage.stage !== 'IXSCAN') {
    if (!stage.inputStage) throw new Error(`no IXSCAN in ${JSON.stringify(out.executionStats.executionStages)}`);
    stage = stage.inputStage as Document;
  }
  return stage;
}

describe('hinted wildcard index', () => {
  beforeEach(async () => {
    await c.createIndex({ '$**': 1 }, { name: 'wc_all' });
    await c.insertMany([
      { _id: 1, a: 5, s: 'x' },
      { _id: 2, a: 7, n: { b: 1 } },
      { _id: 3, a: [3, 9], n: { b: 2 } },
      { _id: 4, n: [{ b: 2 }, { b: 3 }] },
      { _id: 5, e: {}, f: [] },
    ]);
  });

  it('answers equality, ranges, $in and nested paths like a collection scan', async () => {
    const cases: Array<[Document, number[]]> = [
      [{ a: 5 }, [1]],
      [{ a: { $gt: 6 } }, [2, 3]],
      [{ a: { $in: [3, 5] } }, [1, 3]],
      [{ 'n.b': 2 }, [3, 4]],
      [{ n: { $exists: true } }, [2, 3, 4]],
      [{ e: {} }, [5]],
      [{ f: [] }, [5]],
      [{ a: { $ne: null } }, [1, 2, 3]],
      [{ s: /^x/ }, [1]],
      [{ a: 99 }, []],
    ];
    for (const [filter, ids] of cases) {
      const hinted = await c.find(filter).hint('wc_all').sort({ _id: 1 }).toArray();
      const scanned = await c.find(filter).hint({ $natural: 1 }).sort({ _id: 1 }).toArray();
      expect(hinted.map((d) => d._id)).toEqual(ids);
      expect(hinted).toEqual(scanned);
    }
    expect(await c.find({ a: 7 }).hint({ '$**': 1 }).toArray()).toEqual([{ _id: 2, a: 7, n: { b: 1 } }]);
  });

  it('explains the expanded key pattern and the path bounds', async () => {
    const scan = await ixscan({ a: { $gte: 5 } }, { hint: 'wc_all' });
    expect(scan.keyPattern).toEqual({ $_path: 1, a: 1 });
    expect(scan.indexName).toBe('wc_all');
    expect(scan.isMultiKey).toBe(true);
    expect(scan.multiKeyPaths).toEqual({ $_path: [], a: ['a'] });
    expect(scan.indexBounds).toEqual({ $_path: ['["a", "a"]'], a: ['[5, inf.0]'] });
    expect(scan.keysExamined).toBe(3);
    const exists = await ixscan({ n: { $exists: true } }, { hint: 'wc_all' });
    expect(exists.indexBounds).toEqual({ $_path: ['["n", "n"]', '["n.", "n/")'], n: ['[MinKey, MaxKey]'] });
  });

  it('sorts by the scanned path from the index, in both directions', async () => {
    const asc = await c.find({ a: { $gte: 5 } }).sort({ a: -1 }).hint('wc_all').toArray();
    expect(asc.map((d) => d._id)).toEqual([3, 2, 1]);
  });

  it('is refused for a path it does not hold or a predicate it cannot answer', async () => {
    for (const filter of [{ _id: 1 }, { a: { $exists: false } }, { a: null }, { n: { b: 1 } }]) {
      const err = await errorOf(() => c.find(filter).hint('wc_all').toArray());
      expect(err).toMatchObject({ code: 291, codeName: 'NoQueryExecutionPlans' });
    }
  });

  it('is chosen by the planner for a predicate on a path it holds', async () => {
    const scan = await ixscan({ 'n.b': 3 });
    expect(scan.keyPattern).toEqual({ $_path: 1, 'n.b': 1 });
    expect(scan.indexBounds).toEqual({ $_path: ['["n.b", "n.b"]'], 'n.b': ['[3, 3]'] });
    expect(await c.find({ 'n.b': 3 }).toArray()).toEqual([{ _id: 4, n: [{ b: 2 }, { b: 3 }] }]);
  });

  it('follows updates and deletes', async () => {
    await c.updateOne({ _id: 1 }, { $set: { a: { deep: 1 }, z: 4 } });
    await c.deleteOne({ _id: 2 });
    expect(await c.find({ a: 5 }).hint('wc_all').toArray()).toEqual([]);
    expect(await c.find({ 'a.deep': 1 }).hint('wc_all').toArray()).toEqual([{ _id: 1, a: { deep: 1 }, s: 'x', z: 4 }]);
    expect(await c.find({ z: 4 }).hint('wc_all').toArray()).toEqual([{ _id: 1, a: { deep: 1 }, s: 'x', z: 4 }]);
    expect(await c.find({ a: 7 }).hint('wc_all').toArray()).toEqual([]);
    expect(await c.countDocuments({ a: { $gte: 0 } }, { hint: 'wc_all' })).toBe(1);
  });
});

describe('wildcard scopes', () => {
  it('a subtree index holds only its subtree', async () => {
    await c.createIndex({ 'sub.$**': 1 }, { name: 'wc_sub' });
    await c.insertMany([{ _id: 1, other: 1, sub: { x: 1 } }, { _id: 2, sub: { x: 2, y: [1, 2] } }]);
    expect(await c.find({ 'sub.x': 2 }).hint('wc_sub').toArray()).toEqual([{ _id: 2, sub: { x: 2, y: [1, 2] } }]);
    expect(await errorOf(() => c.find({ other: 1 }).hint('wc_sub').toArray())).toMatchObject({ code: 291 });
  });

  it('wildcardProjection includes or excludes paths', async () => {
    await c.createIndex({ '$**': 1 }, { name: 'inc', wildcardProjection: { a: 1, _id: 1 } });
    await c.createIndex({ '$**': -1 }, { name: 'exc', wildcardProjection: { a: 0 } });
    await c.insertMany([{ _id: 1, a: 1, b: 2 }, { _id: 2, a: 2, b: 3 }]);
    expect(await c.find({ a: 2 }).hint('inc').toArray()).toEqual([{ _id: 2, a: 2, b: 3 }]);
    expect(await c.find({ _id: 1 }).hint('inc').toArray()).toEqual([{ _id: 1, a: 1, b: 2 }]);
    expect(await errorOf(() => c.find({ b: 2 }).hint('inc').toArray())).toMatchObject({ code: 291 });
    expect(await c.find({ b: 3 }).hint('exc').toArray()).toEqual([{ _id: 2, a: 2, b: 3 }]);
    expect(await errorOf(() => c.find({ a: 1 }).hint('exc').toArray())).toMatchObject({ code: 291 });
  });
});

describe('compound wildcard index', () => {
  it('scans the regular field and the wildcard path', async () => {
    await c.createIndex({ a: 1, '$**': 1 }, { name: 'cwi', wildcardProjection: { a: 0 } });
    await c.insertMany([{ _id: 1, a: 1, b: 5 }, { _id: 2, a: 1, b: 6 }, { _id: 3, a: 2, c: 1 }]);
    expect(await c.find({ a: 1, b: { $gt: 5 } }).hint('cwi').toArray()).toEqual([{ _id: 2, a: 1, b: 6 }]);
    expect(await c.find({ a: 2 }).hint('cwi').toArray()).toEqual([{ _id: 3, a: 2, c: 1 }]);
    const scan = await ixscan({ a: 1, b: 5 }, { hint: 'cwi' });
    expect(scan.keyPattern).toEqual({ a: 1, $_path: 1, b: 1 });
    expect(scan.indexBounds).toEqual({ a: ['[1, 1]'], $_path: ['["b", "b"]'], b: ['[5, 5]'] });
  });

  it('refuses an array on a regular field (7246301)', async () => {
    await c.createIndex({ a: 1, '$**': 1 }, { name: 'cwi', wildcardProjection: { a: 0 } });
    const err = await errorOf(() => c.insertOne({ _id: 1, a: [1, 2] }));
    expect(err).toMatchObject({ code: 7246301 });
    expect(await c.countDocuments()).toBe(0);
  });
});

describe('wildcard index specs', () => {
  const cases: Array<[Document, number, string]> = [
    [{ key: { '$**': 1 }, name: 'w', wildcardProjection: 'x' }, 14, "The field 'wildcardProjection' must be a non-empty object, but got string"],
    [{ key: { a: 1 }, name: 'w', wildcardProjection: { a: 1 } }, 2, "The field 'wildcardProjection' is only allowed in an '$**' index"],
    [{ key: { '$**': 1 }, name: 'w', wildcardProjection: {} }, 9, "The 'wildcardProjection' field can't be an empty object"],
    [{ key: { 'a.$**': 1 }, name: 'w', wildcardProjection: { b: 1 } }, 9, "The field 'wildcardProjection' is only allowed when 'key' is {\"$**\": ±1}"],
    [{ key: { '$**': 1 }, name: 'w', wildcardProjection: { a: 1, b: 0 } }, 31254, 'Cannot do exclusion on field b in inclusion projection'],
    [{ key: { '$**': 1 }, name: 'w', wildcardProjection: { a: 'yes' } }, 51271, 'Bad projection specification, cannot use computed fields when parsing a spec in kBanComputedFields mode'],
    [{ key: { '$**': 1, 'sub.$**': 1 }, name: 'w' }, 7246201, 'A compound wildcard index must have exactly one wildcard component'],
  ];
  it.each(cases)('refuses %j', async (spec, code, message) => {
    const err = await errorOf(() => h.db.command({ createIndexes: c.collectionName, indexes: [spec] }));
    expect(err.code).toBe(code);
    expect(err.errmsg).toBe(message);
  });

  it('refuses TTL and v:1 with CannotCreateIndex', async () => {
    for (const spec of [{ key: { '$**': 1 }, name: 'w', expireAfterSeconds: 10 }, { key: { '$**': 1 }, name: 'w', v: 1 }, { key: { '$**': 1, a: 1 }, name: 'w' }]) {
      const err = await errorOf(() => h.db.command({ createIndexes: c.collectionName, indexes: [spec] }));
      expect(err).toMatchObject({ code: 67, codeName: 'CannotCreateIndex' });
    }
  });
});
