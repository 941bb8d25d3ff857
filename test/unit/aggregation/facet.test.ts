import { describe, expect, it } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectCommandError, expectExact } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

const DOCS: Document[] = [
  { _id: 1, cat: 'a', n: 5 },
  { _id: 2, cat: 'b', n: 7 },
  { _id: 3, cat: 'a', n: 9 },
];

describe('$facet results', () => {
  const cases: Array<[string, Document, Document[], Document[]]> = [
    [
      'every sub-pipeline over the same input, in specification order',
      { byCat: [{ $match: { cat: 'a' } }, { $project: { _id: 1 } }], total: [{ $count: 'n' }], top: [{ $sort: { n: -1 } }, { $limit: 1 }] },
      DOCS,
      [{ byCat: [{ _id: 1 }, { _id: 3 }], total: [{ n: 3 }], top: [{ _id: 3, cat: 'a', n: 9 }] }],
    ],
    ['an empty sub-pipeline returns the input', { all: [] }, DOCS, [{ all: DOCS }]],
    ['a sub-pipeline with no output gives an empty array', { none: [{ $match: { cat: 'z' } }] }, DOCS, [{ none: [] }]],
    ['an empty input still makes one document', { all: [], total: [{ $count: 'n' }] }, [], [{ all: [], total: [] }]],
    [
      'a $group and a $unwind inside',
      { g: [{ $group: { _id: '$cat', s: { $sum: '$n' } } }, { $sort: { _id: 1 } }], u: [{ $limit: 1 }, { $unwind: { path: '$cat', includeArrayIndex: 'i' } }] },
      DOCS,
      [{ g: [{ _id: 'a', s: 14 }, { _id: 'b', s: 7 }], u: [{ _id: 1, cat: 'a', n: 5, i: null }] }],
    ],
    ['unusual but valid names', { 'my field': [{ $count: 'n' }], '日本語': [{ $count: 'n' }], '@x': [{ $count: 'n' }] }, DOCS, [{ 'my field': [{ n: 3 }], '日本語': [{ n: 3 }], '@x': [{ n: 3 }] }]],
  ];
  for (const [name, spec, input, expected] of cases) {
    it(name, () => expectExact(runPipeline([{ $facet: spec }], input), expected));
  }

  it('a $sample inside draws from the facet input', () => {
    expectExact(runPipeline([{ $facet: { s: [{ $sample: { size: Long.fromNumber(5) } }, { $count: 'n' }] } }], DOCS, () => 0.5), [{ s: [{ n: 3 }] }]);
  });
});

describe('$facet errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['not an object', 1, 40169, 'the $facet specification must be a non-empty object, but found: 1'],
    ['an empty object', {}, 40169, 'the $facet specification must be a non-empty object, but found: {}'],
    ['a sub-pipeline that is not an array', { a: 'x' }, 40170, 'arguments to $facet must be arrays, a is type string'],
    ['a stage that is not an object', { a: [1] }, 40171, 'elements of arrays in $facet spec must be non-empty objects, a argument contained an element of type int: 1'],
    ['an empty name', { '': [] }, 15998, 'FieldPath field names may not be empty strings.'],
    ['a dotted name', { 'a.b': [] }, 16412, "FieldPath field names may not contain '.'. Consider using $getField or $setField."],
    ['a $-prefixed name', { $x: [] }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['an unknown stage', { a: [{ $nope: {} }] }, 40324, "Unrecognized pipeline stage name: '$nope'"],
    ['a bad stage specification', { a: [{ $limit: 0 }] }, 15958, 'the limit must be positive'],
    ['a nested $facet', { a: [{ $facet: { b: [] } }] }, 40600, '$facet is not allowed to be used within a $facet stage'],
    ['$out', { a: [{ $out: 'x' }] }, 40600, '$out is not allowed to be used within a $facet stage'],
    ['$merge', { a: [{ $merge: { into: 'x' } }] }, 40600, '$merge is not allowed to be used within a $facet stage'],
    ['$collStats', { a: [{ $collStats: {} }] }, 40600, '$collStats is not allowed to be used within a $facet stage'],
    ['$documents', { a: [{ $documents: [] }] }, 40600, '$documents is not allowed to be used within a $facet stage'],
    ['$indexStats, which Mayfly lacks', { a: [{ $indexStats: {} }] }, 40600, '$indexStats is not allowed to be used within a $facet stage'],
    ['a forbidden stage in any facet', { ok: [{ $match: {} }], bad: [{ $out: 'x' }] }, 40600, '$out is not allowed to be used within a $facet stage'],
    ['the shapes of every facet before any sub-pipeline', { a: [{ $nope: {} }], b: 3 }, 40170, 'arguments to $facet must be arrays, b is type int'],
  ];
  for (const [name, spec, code, message] of cases) {
    it(name, () => expectCommandError(() => runPipeline([{ $facet: spec }], []), code, message));
  }

  it('an output over 100 MB (the size counted as mongod does only approximately: the code and the limit are exact)', () => {
    const big = 'x'.repeat(1024 * 1024);
    const docs = Array.from({ length: 60 }, (_, i) => ({ _id: i, s: big }));
    let caught: unknown;
    try {
      runPipeline([{ $facet: { a: [], b: [] } }], docs);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CommandError);
    expect((caught as CommandError).code).toBe(4031700);
    expect((caught as CommandError).message).toMatch(/^document constructed by \$facet is 10[0-9]{7} bytes, which exceeds the limit of 104857600 bytes$/);
  });
});

describe('$facet in {aggregate: 1}', () => {
  it('its sub-pipelines are checked before the target (40600, not 73)', () => {
    const ctx = newPipelineContext({ now: new Date(0), collection: null });
    expectCommandError(() => compilePipeline([{ $facet: { a: [{ $listLocalSessions: {} }] } }], ctx), 40600, '$listLocalSessions is not allowed to be used within a $facet stage');
  });

  it('a valid $facet still needs a collection (73)', () => {
    const ctx = newPipelineContext({ now: new Date(0), collection: null });
    expectCommandError(() => compilePipeline([{ $facet: { a: [] } }], ctx), 73, "{aggregate: 1} is not valid for '$facet'; a collection is required.");
  });
});
