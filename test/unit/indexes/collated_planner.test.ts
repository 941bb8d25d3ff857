/**
 * Collated indexes in the planner: which predicates may bound them, and index scans agreeing
 * with a collection scan under the same collation (random data and queries).
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { Collection } from '../../../src/storage/collection.js';
import { collatorOf, normaliseCollation } from '../../../src/storage/indexes/collation.js';
import { executePlan } from '../../../src/storage/planner/execute.js';
import { formatInterval } from '../../../src/storage/planner/intervals.js';
import { planQuery, type PlanNode, type PlanRequest } from '../../../src/storage/planner/plan.js';
import { compileQuery } from '../../../src/storage/query/compile_query.js';
import { compileSort } from '../../../src/storage/query/sort.js';
import type { Collator } from '../../../src/storage/values/collator.js';

const NOW = 1_700_000_000_000;
const now = () => NOW;
const CI = normaliseCollation({ locale: 'en', strength: 2 })!;

function ci(): Collator {
  return collatorOf(CI)!;
}

function collection(docs: Document[], specs: Document[], options: Document = {}): Collection {
  const coll = new Collection('db', 'c', options);
  for (const spec of specs) coll.addIndex({ v: 2, ...spec }, NOW);
  for (const doc of docs) coll.insert(doc, NOW);
  return coll;
}

function run(coll: Collection, request: PlanRequest): { ids: unknown[]; root: PlanNode } {
  const plan = planQuery(coll, request);
  const predicate = compileQuery(request.filter, NOW, undefined, request.collator);
  const ids = [...executePlan(plan, { coll, predicate, now })].map((r) => r.doc._id);
  return { ids, root: plan.root };
}

function scan(root: PlanNode): { index?: string; bounds?: Record<string, string[]> } {
  let node: PlanNode | undefined = root;
  while (node) {
    if (node.stage === 'IXSCAN') {
      const bounds: Record<string, string[]> = {};
      node.index.fields.forEach((f, i) => (bounds[f] = node!.stage === 'IXSCAN' ? (node as Extract<PlanNode, { stage: 'IXSCAN' }>).bounds![i]!.map(formatInterval) : []));
      return { index: node.index.name, bounds };
    }
    node = 'input' in node ? node.input : 'inputs' in node ? node.inputs[0] : undefined;
  }
  return {};
}

describe('which index a collated query may use', () => {
  const docs = [
    { _id: 1, s: 'a', n: 1 },
    { _id: 2, s: 'A', n: 2 },
    { _id: 3, s: 'b', n: 3 },
    { _id: 4, s: 'B', n: 4 },
  ];
  const specs = [
    { key: { s: 1 }, name: 's_ci', collation: CI },
    { key: { n: 1 }, name: 'n_ci', collation: CI },
  ];

  test('string predicates: the index with the query collation only', () => {
    const coll = collection(docs, specs);
    expect(scan(run(coll, { filter: { s: 'A' }, collator: ci() }).root)).toEqual({ index: 's_ci', bounds: { s: ['["A", "A"]'] } });
    expect(run(coll, { filter: { s: 'A' }, collator: ci() }).ids).toEqual([1, 2]);
    expect(scan(run(coll, { filter: { s: 'A' } }).root)).toEqual({});
    expect(run(coll, { filter: { s: 'A' } }).ids).toEqual([2]);
  });

  test('$in values equal under the collation merge into one point; ranges follow its order', () => {
    const coll = collection(docs, specs);
    expect(scan(run(coll, { filter: { s: { $in: ['a', 'A', 'B'] } }, collator: ci() }).root).bounds).toEqual({ s: ['["a", "a"]', '["B", "B"]'] });
    expect(run(coll, { filter: { s: { $in: ['a', 'A', 'B'] } }, collator: ci() }).ids).toEqual([1, 2, 3, 4]);
    expect(run(coll, { filter: { s: { $gt: 'A' } }, collator: ci() }).ids).toEqual([3, 4]);
    expect(run(coll, { filter: { s: { $ne: 'b' } }, collator: ci() }).ids).toEqual([1, 2]);
  });

  test('non-string predicates use a collated index under any collation; regexes never do', () => {
    const coll = collection(docs, specs);
    expect(scan(run(coll, { filter: { n: { $gte: 3 } } }).root)).toEqual({ index: 'n_ci', bounds: { n: ['[3, inf.0]'] } });
    expect(scan(run(coll, { filter: { s: /^a/ }, collator: ci() }).root)).toEqual({});
  });

  test('a hinted collated index under another collation is scanned whole, the filter re-applied', () => {
    const coll = collection(docs, specs);
    const { ids, root } = run(coll, { filter: { s: 'A' }, hint: 's_ci' });
    expect(scan(root)).toEqual({ index: 's_ci', bounds: { s: ['[MinKey, MaxKey]'] } });
    expect(ids).toEqual([2]);
  });

  test('a simple index is not used for strings under a collation, and provides no collated sort', () => {
    const coll = collection(docs, [{ key: { s: 1 }, name: 's_simple' }]);
    expect(scan(run(coll, { filter: { s: 'A' }, collator: ci() }).root)).toEqual({});
    const sorted = run(coll, { filter: {}, sort: { s: 1, _id: 1 }, collator: collatorOf(normaliseCollation({ locale: 'en' }))! });
    expect(sorted.root.stage).toBe('SORT');
    expect(sorted.ids).toEqual([1, 2, 3, 4]);
  });

  test("the _id index of a collection with a default collation: no binary express lookup for strings", () => {
    const coll = collection([{ _id: 'x' }, { _id: 'Y' }], [], { collation: CI });
    const { ids, root } = run(coll, { filter: { _id: 'X' }, collator: coll.defaultCollator });
    expect(ids).toEqual(['x']);
    expect(root.stage).toBe('FETCH');
    expect(run(coll, { filter: { _id: 'X' }, collator: null }).ids).toEqual([]);
  });
});

describe('collated index scans agree with collection scans', () => {
  function lcg(seed: number): () => number {
    let x = seed;
    return () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
  }
  const rand = lcg(42);
  const words = ['a', 'A', 'á', 'Á', 'ab', 'AB', 'b', 'B', 'ba', 'é', 'E', 'e', 'z', 'Z', '10', '9', ''];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const docs = Array.from({ length: 300 }, (_, i) => ({ _id: i, s: pick(words), t: pick(words), n: Math.floor(rand() * 5), arr: [pick(words), pick(words)] }));
  const coll = collection(docs, [
    { key: { s: 1 }, name: 's_ci', collation: CI },
    { key: { s: -1, t: 1 }, name: 's_t_ci', collation: CI },
    { key: { arr: 1 }, name: 'arr_ci', collation: CI },
    { key: { n: 1, s: 1 }, name: 'n_s_ci', collation: CI },
  ]);

  const filters: Document[] = [];
  for (let i = 0; i < 60; i++) {
    const w = pick(words);
    const w2 = pick(words);
    filters.push(
      pick([
        { s: w },
        { s: { $in: [w, w2] } },
        { s: { $gt: w } },
        { s: { $gte: w, $lt: w2 } },
        { s: { $ne: w } },
        { s: w, t: { $lte: w2 } },
        { arr: w },
        { arr: { $elemMatch: { $gte: w, $lte: w2 } } },
        { n: Math.floor(rand() * 5), s: { $in: [w, w2] } },
        { $or: [{ s: w }, { t: w2 }] },
      ]),
    );
  }

  test.each(filters.map((f, i) => [i, f]))('filter %i: %o', (_i, filter) => {
    const indexed = run(coll, { filter: filter as Document, collator: ci() });
    const scanned = run(coll, { filter: filter as Document, collator: ci(), hint: { $natural: 1 } });
    expect([...indexed.ids].sort()).toEqual([...scanned.ids].sort());
  });

  test.each([
    [{ s: 1 }, 'FETCH'],
    [{ s: -1, t: 1 }, 'FETCH'],
    [{ s: 1, t: -1 }, 'FETCH'],
    [{ s: 1, _id: 1 }, 'SORT'],
  ])('sort %o (%s) equals the in-memory sort', (sort, stage) => {
    const indexed = run(coll, { filter: { s: { $gte: 'a' } }, sort, collator: ci() });
    const sorted = run(coll, { filter: { s: { $gte: 'a' } }, sort, collator: ci(), hint: { $natural: 1 } });
    expect(indexed.root.stage).toBe(stage);
    // Same documents, each in order under the collation (ties may come in another order).
    expect([...indexed.ids].sort()).toEqual([...sorted.ids].sort());
    const compare = compileSort(sort as Document, ci());
    const byId = new Map(docs.map((d) => [d._id, d as Document]));
    const inOrder = indexed.ids.map((id) => byId.get(id as number)!);
    for (let i = 1; i < inOrder.length; i++) expect(compare(inOrder[i - 1]!, inOrder[i]!)).toBeLessThanOrEqual(0);
  });
});
