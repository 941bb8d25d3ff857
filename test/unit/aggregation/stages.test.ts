import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectExact } from './helpers.js';

const NOW = new Date(1_700_000_000_000);

function run(pipeline: Document[], docs: Document[]): Document[] {
  return Array.from(compilePipeline(pipeline, newPipelineContext({ now: NOW }))(docs));
}

type Case = [string, Document[], Document[], Document[]];

function table(cases: Case[]): void {
  for (const [name, pipeline, input, expected] of cases) {
    it(name, () => expectExact(run(pipeline, input), expected));
  }
}

const PEOPLE: Document[] = [
  { _id: 1, name: 'ann', dept: 'a', age: 30, tags: ['x', 'y'] },
  { _id: 2, name: 'bob', dept: 'b', age: 25, tags: [] },
  { _id: 3, name: 'cy', dept: 'a', age: 35 },
  { _id: 4, name: 'dee', dept: 'b', age: 40, tags: null },
  { _id: 5, name: 'eve', age: 20, tags: 'z' },
];

describe('$match, $sort, $skip, $limit', () => {
  table([
    ['$match filters', [{ $match: { dept: 'a' } }], PEOPLE, [PEOPLE[0]!, PEOPLE[2]!]],
    ['$match with operators', [{ $match: { age: { $gte: 35 } } }], PEOPLE, [PEOPLE[2]!, PEOPLE[3]!]],
    ['$sort descending', [{ $sort: { age: -1 } }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 4 }, { _id: 3 }, { _id: 1 }, { _id: 2 }, { _id: 5 }]],
    ['$sort missing first, stable on ties', [{ $sort: { dept: 1 } }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 5 }, { _id: 1 }, { _id: 3 }, { _id: 2 }, { _id: 4 }]],
    ['$skip', [{ $skip: 3 }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 4 }, { _id: 5 }]],
    ['$skip 0', [{ $skip: 0 }, { $count: 'n' }], PEOPLE, [{ n: 5 }]],
    ['$skip with a Double', [{ $skip: new Double(4) }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 5 }]],
    ['$limit', [{ $limit: 2 }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 1 }, { _id: 2 }]],
    ['$limit with a Long', [{ $limit: Long.fromNumber(1) }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 1 }]],
    ['$skip then $limit', [{ $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }], PEOPLE, [{ _id: 2 }, { _id: 3 }]],
  ]);

  it('is lazy: $limit stops reading its input', () => {
    let read = 0;
    function* source(): Generator<Document> {
      for (let i = 0; i < 1000; i++) {
        read++;
        yield { _id: i };
      }
    }
    const out = Array.from(compilePipeline([{ $match: {} }, { $limit: 3 }], newPipelineContext({ now: NOW }))(source()));
    expect(out.length).toBe(3);
    expect(read).toBe(3);
  });
});

describe('$project, $addFields/$set, $unset', () => {
  const doc = { _id: 1, a: 1, b: { c: 2, d: 3 }, arr: [{ x: 1 }, 5, [{ x: 2 }]] };
  table([
    ['$project inclusion', [{ $project: { a: 1 } }], [doc], [{ _id: 1, a: 1 }]],
    ['$project exclusion', [{ $project: { b: 0, arr: 0 } }], [doc], [{ _id: 1, a: 1 }]],
    ['$project computed', [{ $project: { _id: 0, sum: { $add: ['$a', '$b.c'] }, lit: { $literal: 1 } } }], [doc], [{ sum: 3, lit: 1 }]],
    ['$project does not descend nested arrays', [{ $project: { 'arr.x': 1 } }], [doc], [{ _id: 1, arr: [{ x: 1 }] }]],
    ['$project of a field path renames', [{ $project: { _id: 0, c: '$b.c' } }], [doc], [{ c: 2 }]],
    ['$addFields appends new fields', [{ $addFields: { z: 1, y: '$a' } }], [{ _id: 1, a: 1 }], [{ _id: 1, a: 1, z: 1, y: 1 }]],
    ['$addFields replaces in place', [{ $addFields: { a: 'new' } }], [{ _id: 1, a: 1, b: 2 }], [{ _id: 1, a: 'new', b: 2 }]],
    ['$set is $addFields', [{ $set: { 'b.e': 4 } }], [{ _id: 1, b: { c: 2 } }], [{ _id: 1, b: { c: 2, e: 4 } }]],
    ['$addFields nested object is a nested spec', [{ $addFields: { b: { e: 4 } } }], [{ _id: 1, b: { c: 2 } }], [{ _id: 1, b: { c: 2, e: 4 } }]],
    ['$addFields over a scalar makes a document', [{ $addFields: { 'a.b': 1 } }], [{ _id: 1, a: 5 }], [{ _id: 1, a: { b: 1 } }]],
    ['$addFields into an array of documents', [{ $addFields: { 'a.b': 1 } }], [{ _id: 1, a: [{ x: 1 }, 2] }], [{ _id: 1, a: [{ x: 1, b: 1 }, { b: 1 }] }]],
    ['$addFields with $$REMOVE removes', [{ $addFields: { a: '$$REMOVE' } }], [{ _id: 1, a: 1, b: 2 }], [{ _id: 1, b: 2 }]],
    ['$addFields a literal number', [{ $addFields: { n: 0 } }], [{ _id: 1 }], [{ _id: 1, n: 0 }]],
    ['$unset a field', [{ $unset: 'a' }], [{ _id: 1, a: 1, b: 2 }], [{ _id: 1, b: 2 }]],
    ['$unset a list', [{ $unset: ['a', 'b.c'] }], [{ _id: 1, a: 1, b: { c: 1, d: 2 } }], [{ _id: 1, b: { d: 2 } }]],
  ]);
});

describe('$group and accumulators', () => {
  const sales: Document[] = [
    { _id: 1, k: 'a', n: 1, p: 2.5, q: Long.fromNumber(2), x: 'str' },
    { _id: 2, k: 'b', n: 2, p: 1, q: Long.fromNumber(3) },
    { _id: 3, k: 'a', n: 3, p: 0.5, q: 1 },
    { _id: 4, n: 4 },
    { _id: 5, k: null, n: 5 },
  ];
  table([
    [
      'groups by a field (missing and null together), first-seen order',
      [{ $group: { _id: '$k', total: { $sum: '$n' }, count: { $sum: 1 } } }],
      sales,
      [
        { _id: 'a', total: 4, count: 2 },
        { _id: 'b', total: 2, count: 1 },
        { _id: null, total: 9, count: 2 },
      ],
    ],
    ['$sum ignores non-numbers and missing', [{ $group: { _id: null, s: { $sum: '$x' } } }], sales, [{ _id: null, s: 0 }]],
    ['$sum of Int32 and Double is Double', [{ $group: { _id: null, s: { $sum: '$p' } } }], sales, [{ _id: null, s: new Double(4) }]],
    ['$sum with an Int64 is Int64', [{ $group: { _id: null, s: { $sum: '$q' } } }], sales, [{ _id: null, s: Long.fromNumber(6) }]],
    [
      '$sum overflowing Int32 becomes Int64',
      [{ $group: { _id: null, s: { $sum: '$v' } } }],
      [{ v: 2147483647 }, { v: 1 }],
      [{ _id: null, s: Long.fromString('2147483648') }],
    ],
    [
      '$sum of Decimal128',
      [{ $group: { _id: null, s: { $sum: '$v' } } }],
      [{ v: Decimal128.fromString('1.1') }, { v: 2 }],
      [{ _id: null, s: Decimal128.fromString('3.1') }],
    ],
    ['$sum of doubles is compensated', [{ $group: { _id: null, s: { $sum: '$v' } } }], [{ v: 0.1 }, { v: 0.2 }, { v: 0.3 }], [{ _id: null, s: 0.6 }]],
    ['$avg is a Double', [{ $group: { _id: '$k', a: { $avg: '$n' } } }, { $match: { _id: 'a' } }], sales, [{ _id: 'a', a: new Double(2) }]],
    ['$avg without numbers is null', [{ $group: { _id: null, a: { $avg: '$x' } } }, { $project: { _id: 0 } }], [{ x: 's' }], [{ a: null }]],
    ['$min and $max ignore null and missing', [{ $group: { _id: null, lo: { $min: '$k' }, hi: { $max: '$k' } } }], sales, [{ _id: null, lo: 'a', hi: 'b' }]],
    ['$min of nothing is null', [{ $group: { _id: null, lo: { $min: '$zz' } } }], sales, [{ _id: null, lo: null }]],
    ['$first and $last', [{ $group: { _id: null, f: { $first: '$n' }, l: { $last: '$k' } } }], sales, [{ _id: null, f: 1, l: null }]],
    ['$first of a missing field is null', [{ $group: { _id: null, f: { $first: '$zz' } } }], sales, [{ _id: null, f: null }]],
    ['$push skips missing values', [{ $group: { _id: null, v: { $push: '$k' } } }], sales, [{ _id: null, v: ['a', 'b', 'a', null] }]],
    ['$addToSet keeps the first of equal values', [{ $group: { _id: null, v: { $addToSet: '$k' } } }], sales, [{ _id: null, v: ['a', 'b', null] }]],
    ['$count accumulator', [{ $group: { _id: '$k', c: { $count: {} } } }, { $match: { _id: 'a' } }], sales, [{ _id: 'a', c: 2 }]],
    [
      'groups by a compound key; numerically equal keys share a group',
      [{ $group: { _id: { v: '$v' }, c: { $sum: 1 } } }],
      [{ v: 1 }, { v: new Double(1) }, { v: Long.fromNumber(1) }, { v: 2 }],
      [
        { _id: { v: 1 }, c: 3 },
        { _id: { v: 2 }, c: 1 },
      ],
    ],
    ['groups by a constant', [{ $group: { _id: 1, c: { $sum: 1 } } }], sales, [{ _id: 1, c: 5 }]],
    ['an empty input gives no group', [{ $group: { _id: null, c: { $sum: 1 } } }], [], []],
  ]);
});

describe('$count, $sortByCount, $unwind, $replaceRoot, $replaceWith', () => {
  table([
    ['$count', [{ $match: { dept: 'a' } }, { $count: 'total' }], PEOPLE, [{ total: 2 }]],
    ['$count of nothing outputs nothing', [{ $match: { dept: 'zz' } }, { $count: 'total' }], PEOPLE, []],
    [
      '$sortByCount',
      [{ $sortByCount: '$dept' }],
      PEOPLE,
      [
        { _id: 'a', count: 2 },
        { _id: 'b', count: 2 },
        { _id: null, count: 1 },
      ],
    ],
    [
      '$sortByCount of an expression',
      [{ $sortByCount: { $gt: ['$age', 28] } }],
      PEOPLE,
      [
        { _id: true, count: 3 },
        { _id: false, count: 2 },
      ],
    ],
    [
      '$unwind a string path (non-arrays pass, null/missing/empty dropped)',
      [{ $unwind: '$tags' }, { $project: { tags: 1 } }],
      PEOPLE,
      [
        { _id: 1, tags: 'x' },
        { _id: 1, tags: 'y' },
        { _id: 5, tags: 'z' },
      ],
    ],
    [
      '$unwind preserving null and empty arrays, with the Int64 index',
      [{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } }, { $project: { tags: 1, i: 1 } }],
      PEOPLE,
      [
        { _id: 1, tags: 'x', i: Long.fromNumber(0) },
        { _id: 1, tags: 'y', i: Long.fromNumber(1) },
        { _id: 2, i: null },
        { _id: 3, i: null },
        { _id: 4, tags: null, i: null },
        { _id: 5, tags: 'z', i: null },
      ],
    ],
    [
      '$unwind a nested path',
      [{ $unwind: '$a.b' }],
      [{ _id: 1, a: { b: [1, 2], c: 3 } }],
      [
        { _id: 1, a: { b: 1, c: 3 } },
        { _id: 1, a: { b: 2, c: 3 } },
      ],
    ],
    ['$replaceRoot', [{ $replaceRoot: { newRoot: '$s' } }], [{ _id: 1, s: { x: 1 } }], [{ x: 1 }]],
    ['$replaceRoot with an object expression', [{ $replaceRoot: { newRoot: { id: '$_id', x: '$s.x' } } }], [{ _id: 1, s: { x: 1 } }], [{ id: 1, x: 1 }]],
    ['$replaceWith', [{ $replaceWith: '$s' }], [{ _id: 1, s: { x: 1 } }], [{ x: 1 }]],
  ]);
});
