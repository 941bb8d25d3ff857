import { describe, expect, it } from 'vitest';
import { Double, Long, type Document } from '../../../src/bson/library.js';
import { ExpressionContext } from '../../../src/storage/expression/context.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { evaluateCommandLet } from '../../../src/storage/expression/let.js';
import { expectCommandError, expectExact } from './helpers.js';

const NOW_MS = 1_700_000_000_000;
const NOW = new Date(NOW_MS);

/** The command `let` every case runs with. */
const LET: Document = {
  id: 2,
  x: 'foo',
  y: { $literal: '$bar' },
  one: 1,
  dbl: new Double(3),
  obj: { a: { b: 7 }, arr: [{ c: 1 }, { c: 2 }] },
  sum: { $add: ['$$one', 10] },
  gone: '$$REMOVE',
  when: '$$NOW',
};
const VARIABLES = evaluateCommandLet(LET, { now: new Date(NOW_MS), collator: null });

const DOCS: Document[] = [
  { _id: 1, k: 'a', v: 10 },
  { _id: 2, k: 'b', v: 20 },
  { _id: 3, k: 'a', v: 30 },
];

function run(pipeline: Document[], docs: Document[] = DOCS): Document[] {
  return Array.from(compilePipeline(pipeline, newPipelineContext({ now: NOW, variables: VARIABLES }))(docs));
}

function table(cases: Array<[string, Document[], Document[]]>): void {
  for (const [name, pipeline, expected] of cases) {
    it(name, () => expectExact(run(pipeline), expected));
  }
}

describe('command let variables in every stage', () => {
  table([
    ['$match $expr', [{ $match: { $expr: { $eq: ['$_id', '$$id'] } } }], [DOCS[1]!]],
    ['$match $expr inside $and', [{ $match: { $and: [{ k: 'a' }, { $expr: { $gt: ['$v', '$$sum'] } }] } }], [DOCS[2]!]],
    ['$project computed from variables', [{ $match: { _id: 1 } }, { $project: { _id: 0, x: '$$x', y: '$$y', s: '$$sum' } }], [{ x: 'foo', y: '$bar', s: 11 }]],
    ['$project: a variable holding 1 is a value, not an inclusion', [{ $match: { _id: 1 } }, { $project: { _id: 0, one: '$$one' } }], [{ one: 1 }]],
    ['$project keeps BSON types', [{ $match: { _id: 1 } }, { $project: { _id: 0, d: '$$dbl' } }], [{ d: new Double(3) }]],
    ['$project a path into a variable', [{ $match: { _id: 1 } }, { $project: { _id: 0, b: '$$obj.a.b', c: '$$obj.arr.c' } }], [{ b: 7, c: [1, 2] }]],
    ['$project a missing variable value drops the field', [{ $match: { _id: 1 } }, { $project: { _id: 0, g: '$$gone', x: '$$x' } }], [{ x: 'foo' }]],
    ['$project: $literal arguments are not bound', [{ $match: { _id: 1 } }, { $project: { _id: 0, l: { $literal: '$$x' } } }], [{ l: '$$x' }]],
    ['$project: variables inside operators', [{ $match: { _id: 1 } }, { $project: { _id: 0, t: { $add: ['$v', '$$one'] } } }], [{ t: 11 }]],
    ['$addFields', [{ $match: { _id: 3 } }, { $addFields: { w: { $multiply: ['$v', '$$id'] }, x: '$$x' } }], [{ _id: 3, k: 'a', v: 30, w: 60, x: 'foo' }]],
    ['$set, nested', [{ $match: { _id: 2 } }, { $set: { 'n.m': '$$obj.a' } }], [{ _id: 2, k: 'b', v: 20, n: { m: { b: 7 } } }]],
    ['$replaceWith', [{ $match: { _id: 1 } }, { $replaceWith: '$$obj.a' }], [{ b: 7 }]],
    ['$replaceRoot', [{ $match: { _id: 1 } }, { $replaceRoot: { newRoot: { id: '$$id', k: '$k' } } }], [{ id: 2, k: 'a' }]],
    ['$group _id and accumulators', [{ $group: { _id: { $concat: ['$k', '$$x'] }, total: { $sum: { $add: ['$v', '$$one'] } } } }, { $sort: { _id: 1 } }], [
      { _id: 'afoo', total: 42 },
      { _id: 'bfoo', total: 21 },
    ]],
    ['$sortByCount', [{ $sortByCount: { $eq: ['$k', 'a'] } }, { $project: { _id: 1, count: 1, x: '$$x' } }], [
      { _id: true, count: 2, x: 'foo' },
      { _id: false, count: 1, x: 'foo' },
    ]],
    ['$$NOW in let is the pipeline $$NOW', [{ $match: { _id: 1 } }, { $project: { _id: 0, same: { $eq: ['$$when', '$$NOW'] } } }], [{ same: true }]],
  ]);

  const undefinedVariable: Array<[string, Document[], string]> = [
    ['$match $expr', [{ $match: { $expr: '$$nope' } }], 'Use of undefined variable: nope'],
    ['$project', [{ $project: { a: '$$nope' } }], 'Invalid $project :: caused by :: Use of undefined variable: nope'],
    ['$addFields', [{ $addFields: { a: '$$nope' } }], 'Invalid $addFields :: caused by :: Use of undefined variable: nope'],
    ['$group', [{ $group: { _id: '$$nope' } }], 'Use of undefined variable: nope'],
    ['$replaceWith', [{ $replaceWith: '$$nope' }], 'Use of undefined variable: nope'],
  ];
  for (const [name, pipeline, message] of undefinedVariable) {
    it(`an undefined variable in ${name} is 17276 when the pipeline is compiled`, () =>
      expectCommandError(() => compilePipeline(pipeline, newPipelineContext({ now: NOW, variables: VARIABLES })), 17276, message));
  }
  it('without let, a variable is undefined', () =>
    expectCommandError(() => compilePipeline([{ $project: { a: '$$x' } }], newPipelineContext({ now: NOW })), 17276, 'Invalid $project :: caused by :: Use of undefined variable: x'));
  it('the expression entry points read the context variables', () => {
    expectExact(new ExpressionContext({ now: NOW, variables: VARIABLES }).compile({ $add: ['$$one', '$a'] })({ a: Long.fromNumber(2) }), Long.fromNumber(3));
    expect(new ExpressionContext({ now: NOW, variables: VARIABLES }).predicate({ $eq: ['$$x', '$a'] })({ a: 'foo' })).toBe(true);
  });
  it('a compiled pipeline reads the values each time it runs', () => {
    const pipeline = compilePipeline([{ $project: { _id: 0, x: '$$x' } }], newPipelineContext({ now: NOW, variables: VARIABLES }));
    expectExact(Array.from(pipeline([{ _id: 1 }, { _id: 2 }])), [{ x: 'foo' }, { x: 'foo' }]);
  });
});
