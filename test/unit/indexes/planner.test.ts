import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { Collection } from '../../../src/storage/collection.js';
import { compileQuery } from '../../../src/storage/query/compile_query.js';
import { compileSort } from '../../../src/storage/query/sort.js';
import { executePlan } from '../../../src/storage/planner/execute.js';
import { planQuery, type PlanNode, type PlanRequest } from '../../../src/storage/planner/plan.js';
import { stageDocument, summarize } from '../../../src/storage/planner/explain_output.js';
import { keyString } from '../../../src/storage/values/key_string.js';

const NOW = 1_700_000_000_000;
const now = () => NOW;

function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** A collection with `docs` and the given index specs. */
function collection(docs: Document[], specs: Document[]): Collection {
  const coll = new Collection('db', 'c');
  for (const spec of specs) coll.addIndex({ v: 2, ...spec }, NOW);
  for (const doc of docs) coll.insert(doc, NOW);
  return coll;
}

/** Runs a plan; returns the `_id`s and the plan. */
function run(coll: Collection, request: PlanRequest): { ids: unknown[]; root: PlanNode } {
  const plan = planQuery(coll, request);
  const predicate = compileQuery(request.filter, NOW);
  const ids = [...executePlan(plan, { coll, predicate, now })].map((r) => r.doc._id);
  return { ids, root: plan.root };
}

/** The winning plan's stages from the root down (first input each time). */
function stages(root: PlanNode): string[] {
  const out: string[] = [];
  let node: PlanNode | undefined = root;
  while (node) {
    out.push(node.stage);
    node = 'input' in node ? node.input : 'inputs' in node ? node.inputs[0] : undefined;
  }
  return out;
}

function indexName(root: PlanNode): string | undefined {
  let node: PlanNode | undefined = root;
  while (node) {
    if (node.stage === 'IXSCAN' || node.stage === 'EXPRESS_IXSCAN') return node.index.name;
    node = 'input' in node ? node.input : undefined;
  }
  return undefined;
}

describe('plan choice', () => {
  const docs = Array.from({ length: 200 }, (_, i) => ({ _id: i, a: i % 10, b: i, c: i % 2 === 0 ? 'even' : 'odd' }));

  test('no index: COLLSCAN with the filter', () => {
    const coll = collection(docs, []);
    const { ids, root } = run(coll, { filter: { a: 3 } });
    expect(stages(root)).toEqual(['COLLSCAN']);
    expect(ids).toEqual([3, 13, 23, 33, 43, 53, 63, 73, 83, 93, 103, 113, 123, 133, 143, 153, 163, 173, 183, 193]);
    expect(summarize(root)).toEqual({ nReturned: 20, totalKeysExamined: 0, totalDocsExamined: 200 });
  });

  test('an equality uses the index: FETCH over IXSCAN, keys and documents examined = matches', () => {
    const coll = collection(docs, [{ key: { a: 1 }, name: 'a_1' }]);
    const { ids, root } = run(coll, { filter: { a: 3 } });
    expect(stages(root)).toEqual(['FETCH', 'IXSCAN']);
    expect(ids.length).toBe(20);
    expect(summarize(root)).toEqual({ nReturned: 20, totalKeysExamined: 20, totalDocsExamined: 20 });
    expect(stageDocument(root, 'queryPlanner')).toEqual({
      isCached: false,
      stage: 'FETCH',
      inputStage: {
        stage: 'IXSCAN',
        keyPattern: { a: 1 },
        indexName: 'a_1',
        isMultiKey: false,
        multiKeyPaths: { a: [] },
        isUnique: false,
        isSparse: false,
        isPartial: false,
        indexVersion: 2,
        direction: 'forward',
        indexBounds: { a: ['[3, 3]'] },
      },
    });
  });

  test('the index whose bounds hold the fewest keys wins', () => {
    const coll = collection(docs, [
      { key: { a: 1 }, name: 'a_1' },
      { key: { b: 1 }, name: 'b_1' },
    ]);
    expect(indexName(run(coll, { filter: { a: 3, b: { $gte: 190 } } }).root)).toBe('b_1');
    expect(indexName(run(coll, { filter: { a: 3, b: { $gte: 10 } } }).root)).toBe('a_1');
    const { ids, root } = run(coll, { filter: { a: 3, b: { $gte: 190 } } });
    expect(ids).toEqual([193]);
    expect(stageDocument(root, 'queryPlanner').filter).toEqual({ a: { $eq: 3 } });
    expect(summarize(root)).toEqual({ nReturned: 1, totalKeysExamined: 10, totalDocsExamined: 10 });
  });

  test('a sort the index provides needs no SORT stage, in either direction', () => {
    const coll = collection(docs, [{ key: { a: 1, b: -1 }, name: 'a_1_b_-1' }]);
    const asc = run(coll, { filter: { a: 4 }, sort: { b: -1 }, limit: 3 });
    expect(stages(asc.root)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(asc.ids).toEqual([194, 184, 174]);
    const desc = run(coll, { filter: { a: 4 }, sort: { b: 1 }, limit: 3 });
    expect(stages(desc.root)).toEqual(['LIMIT', 'FETCH', 'IXSCAN']);
    expect(desc.ids).toEqual([4, 14, 24]);
    expect(stageDocument(desc.root, 'queryPlanner')).toMatchObject({
      stage: 'LIMIT',
      limitAmount: 3,
      inputStage: { stage: 'FETCH', inputStage: { direction: 'backward', indexBounds: { a: ['[4, 4]'], b: ['[MinKey, MaxKey]'] } } },
    });
    expect(summarize(desc.root)).toEqual({ nReturned: 3, totalKeysExamined: 3, totalDocsExamined: 3 });
    const blocking = run(coll, { filter: { b: { $lt: 5 } }, sort: { c: 1 } });
    expect(stages(blocking.root)).toEqual(['SORT', 'COLLSCAN']);
  });

  test('$in on a compound prefix: keys past an interval are examined, then a seek or the end', () => {
    const coll = collection(docs, [{ key: { a: 1, b: 1 }, name: 'a_1_b_1' }]);
    const { ids, root } = run(coll, { filter: { a: { $in: [1, 2] }, b: { $lt: 30 } } });
    expect(ids).toEqual([1, 11, 21, 2, 12, 22]);
    const ix = stageDocument(root, 'executionStats').inputStage as Document;
    expect(ix.indexBounds).toEqual({ a: ['[1, 1]', '[2, 2]'], b: ['[-inf.0, 30)'] });
    expect([ix.keysExamined, ix.seeks, ix.nReturned]).toEqual([8, 2, 6]);
  });

  test('_id equality takes the express path; hint forces an index or a collection scan', () => {
    const coll = collection(docs, [{ key: { a: 1 }, name: 'a_1' }]);
    const express = run(coll, { filter: { _id: 7 } });
    expect(stages(express.root)).toEqual(['EXPRESS_IXSCAN']);
    expect(stageDocument(express.root, 'executionStats')).toEqual({
      isCached: false,
      stage: 'EXPRESS_IXSCAN',
      keyPattern: '{ _id: 1 }',
      indexName: '_id_',
      keysExamined: 1,
      docsExamined: 1,
      nReturned: 1,
    });
    expect(indexName(run(coll, { filter: { a: 3 }, hint: '_id_' }).root)).toBe('_id_');
    expect(stages(run(coll, { filter: { a: 3 }, hint: { $natural: -1 } }).root)).toEqual(['COLLSCAN']);
    expect(run(coll, { filter: { a: 3 }, hint: { $natural: -1 } }).ids.slice(0, 2)).toEqual([193, 183]);
    expect(() => run(coll, { filter: {}, hint: 'nope' })).toThrow('hint provided does not correspond to an existing index');
  });

  test('min/max scan a hinted index between two keys', () => {
    const coll = collection(docs, [{ key: { b: 1 }, name: 'b_1' }]);
    const { ids } = run(coll, { filter: {}, hint: 'b_1', min: { b: 10 }, max: { b: 14 } });
    expect(ids).toEqual([10, 11, 12, 13]);
    expect(() => run(coll, { filter: {}, min: { b: 10 } })).toThrow('When using min()/max() a hint of which index to use must be provided');
    expect(() => run(coll, { filter: {}, hint: 'b_1', min: { a: 10 } })).toThrow('The index chosen is not compatible with min/max');
  });

  test('a rooted $or with an index for every branch: SUBPLAN, FETCH, OR of IXSCANs', () => {
    const coll = collection(docs, [
      { key: { a: 1 }, name: 'a_1' },
      { key: { b: 1 }, name: 'b_1' },
    ]);
    const { ids, root } = run(coll, { filter: { $or: [{ a: 0, b: { $lt: 30 } }, { b: 5 }] } });
    expect(stages(root)).toEqual(['SUBPLAN', 'FETCH', 'OR', 'IXSCAN']);
    expect(new Set(ids)).toEqual(new Set([0, 10, 20, 5]));
  });

  test('sparse and partial indexes are used only when the query implies their contents', () => {
    const coll = collection(docs, [
      { key: { c: 1 }, name: 'c_1', sparse: true },
      { key: { b: 1 }, name: 'b_part', partialFilterExpression: { b: { $gt: 100 } } },
    ]);
    expect(indexName(run(coll, { filter: { c: 'odd' } }).root)).toBe('c_1');
    expect(stages(run(coll, { filter: { c: null } }).root)).toEqual(['COLLSCAN']);
    expect(indexName(run(coll, { filter: { b: { $gt: 150 } } }).root)).toBe('b_part');
    expect(stages(run(coll, { filter: { b: { $gt: 50 } } }).root)).toEqual(['COLLSCAN']);
  });

  test('a hidden index is never chosen nor hinted', () => {
    const coll = collection(docs, [{ key: { a: 1 }, name: 'a_1', hidden: true }]);
    expect(stages(run(coll, { filter: { a: 3 } }).root)).toEqual(['COLLSCAN']);
    expect(() => run(coll, { filter: {}, hint: 'a_1' })).toThrow('hint provided does not correspond to an existing index');
  });
});

describe('correctness: every plan returns exactly what a scan returns', () => {
  const rand = lcg(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const values = [null, 0, 1, 2, 3, 2.5, -1, 'a', 'ab', 'b', true, [1, 2], [], [3], { x: 1 }];
  const docs: Document[] = Array.from({ length: 300 }, (_, i) => {
    const doc: Document = { _id: i };
    if (rand() < 0.9) doc.a = pick(values);
    if (rand() < 0.9) doc.b = Math.floor(rand() * 6);
    if (rand() < 0.5) doc.c = { d: pick([1, 2, 3, null]) };
    if (rand() < 0.3) doc.e = [{ f: pick([1, 2]) }, { f: pick([2, 3]) }];
    return doc;
  });
  const specs = [
    { key: { a: 1 }, name: 'a_1' },
    { key: { b: -1, a: 1 }, name: 'b_-1_a_1' },
    { key: { 'c.d': 1 }, name: 'cd_1', sparse: true },
    { key: { 'e.f': 1 }, name: 'ef_1' },
    { key: { b: 1 }, name: 'b_part', partialFilterExpression: { b: { $gte: 3 } } },
  ];
  const ops = (path: string): Document[] => [
    { [path]: pick(values) },
    { [path]: { $gt: pick(values) } },
    { [path]: { $gte: pick([0, 1, 'a', 2.5]) } },
    { [path]: { $lt: pick([2, 3, 'b', true]) } },
    { [path]: { $lte: pick([1, 'ab']) } },
    { [path]: { $in: [pick(values), pick(values)] } },
    { [path]: { $ne: pick([1, 2, 'a', null]) } },
    { [path]: { $nin: [pick([1, 2, 'a']), pick([3, null])] } },
    { [path]: { $exists: pick([true, false]) } },
    { [path]: { $not: { $gt: pick([1, 2]) } } },
    { [path]: /^a/ },
    { [path]: { $elemMatch: { $gte: 1, $lt: 3 } } },
    { [path]: { $gt: 0, $lt: 3 } },
  ];
  const sortSpecs: Array<Document | undefined> = [undefined, { a: 1 }, { b: -1 }, { b: 1, a: 1 }, { 'e.f': 1 }];

  test('500 random filters, sorts and limits over arrays, missing fields and mixed types', () => {
    const coll = collection(docs, specs);
    for (let round = 0; round < 500; round++) {
      const parts = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(ops(pick(['a', 'b', 'c.d', 'e.f']))));
      const filter: Document = rand() < 0.15 ? { $or: parts } : { $and: parts };
      const sort = pick(sortSpecs);
      const predicate = compileQuery(filter, NOW);
      const expected = docs.filter((d) => predicate(d));
      const plan = planQuery(coll, { filter, sort });
      const got = [...executePlan(plan, { coll, predicate, now })].map((r) => r.doc);
      const context = JSON.stringify({ filter, sort, plan: stageDocument(plan.root, 'queryPlanner') });
      expect(new Set(got.map((d) => keyString(d._id))), context).toEqual(new Set(expected.map((d) => keyString(d._id))));
      expect(got.length, context).toBe(expected.length);
      if (sort) {
        const compare = compileSort(sort);
        for (let i = 1; i < got.length; i++) expect(compare(got[i - 1]!, got[i]!) <= 0, context).toBe(true);
      }
    }
  });

  test('index entries stay equal to the documents’ keys through inserts, updates and deletes', () => {
    const coll = collection([], specs);
    const live = new Map<number, Document>();
    for (let step = 0; step < 2000; step++) {
      const id = Math.floor(rand() * 150);
      const existing = coll.getById(keyString(id), NOW);
      const doc: Document = { _id: id, a: pick(values), b: Math.floor(rand() * 6), e: [{ f: pick([1, 2]) }] };
      if (!existing) {
        coll.insert(doc, NOW);
        live.set(id, doc);
      } else if (rand() < 0.5) {
        coll.update(existing, doc, NOW);
        live.set(id, doc);
      } else {
        coll.remove(existing);
        live.delete(id);
      }
    }
    for (const index of coll.allIndexes()) {
      let expected = 0;
      for (const doc of live.values()) expected += index.keysOf(doc).keys.length;
      expect(index.tree.size, index.name).toBe(expected);
    }
    const predicate = compileQuery({ b: { $gte: 4 } }, NOW);
    const plan = planQuery(coll, { filter: { b: { $gte: 4 } } });
    expect(new Set([...executePlan(plan, { coll, predicate, now })].map((r) => r.doc._id))).toEqual(
      new Set([...live.values()].filter((d) => (d.b as number) >= 4).map((d) => d._id)),
    );
  });
});
