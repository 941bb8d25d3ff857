/** `$lookup`: the equality join, `let` + `pipeline`, both, views, `$documents`, and mongod's errors. */
import { describe, expect, it } from 'vitest';
import { Double, Int32, Long, type Document } from '../../../src/bson/library.js';
import { Collator } from '../../../src/storage/values/collator.js';
import type { ForeignQuery } from '../../../src/storage/aggregation/runtime.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectCommandError, expectExact } from './helpers.js';
import { NOW, foreignRuntime, parseWith, runWith, type Foreign } from './foreign_runtime.js';

const F: Foreign = {
  collections: {
    f: [
      { _id: 10, ff: 'a', x: 1 },
      { _id: 11, ff: ['a', 'b'], x: 2 },
      { _id: 12, ff: null, x: 3 },
      { _id: 13, x: 4 },
      { _id: 14, ff: 1, x: 5 },
      { _id: 15, n: { ff: 'a' }, x: 6 },
      { _id: 16, ff: 'A', x: 7 },
    ],
  },
  views: { v: { source: 'f', pipeline: [{ $match: { x: { $gte: 3 } } }, { $project: { ff: 1 } }] } },
};

const eq = (localField: string, foreignField: string, as = 'j', from = 'f'): Document => ({ $lookup: { from, localField, foreignField, as } });
const ids = (as = 'j'): Document => ({ $project: { _id: 1, [as]: `$${as}._id` } });

type Case = [string, Document[], Document[], Document[]];
function table(cases: Case[], foreign: Foreign = F): void {
  for (const [name, pipeline, input, expected] of cases) it(name, () => expectExact(runWith(foreign, pipeline, input), expected));
}

describe('$lookup localField/foreignField', () => {
  table([
    ['a scalar matches the scalar and the array holding it', [eq('lf', 'ff'), ids()], [{ _id: 1, lf: 'a' }], [{ _id: 1, j: [10, 11] }]],
    ['a local array matches each of its elements', [eq('lf', 'ff'), ids()], [{ _id: 1, lf: ['b', 1] }], [{ _id: 1, j: [11, 14] }]],
    ['a missing local field matches null and missing', [eq('lf', 'ff'), ids()], [{ _id: 1 }], [{ _id: 1, j: [12, 13, 15] }]],
    ['a null local field matches null and missing', [eq('lf', 'ff'), ids()], [{ _id: 1, lf: null }], [{ _id: 1, j: [12, 13, 15] }]],
    ['numbers match across types', [eq('lf', 'ff'), ids()], [{ _id: 1, lf: new Double(1) }, { _id: 2, lf: Long.fromNumber(1) }], [{ _id: 1, j: [14] }, { _id: 2, j: [14] }]],
    ['a dotted foreign path', [eq('lf', 'n.ff'), ids()], [{ _id: 1, lf: 'a' }], [{ _id: 1, j: [15] }]],
    ['a dotted local path through an array', [eq('l.v', 'ff'), ids()], [{ _id: 1, l: [{ v: 'b' }, { v: 1 }] }], [{ _id: 1, j: [11, 14] }]],
    ['no match is an empty array', [eq('lf', 'ff')], [{ _id: 1, lf: 'zz' }], [{ _id: 1, lf: 'zz', j: [] }]],
    ['`as` overwrites the field in place', [eq('lf', 'ff', 'lf'), ids('lf')], [{ _id: 1, lf: 'b', y: 2 }], [{ _id: 1, lf: [11] }]],
    ['a dotted `as` makes documents', [eq('lf', 'ff', 'o.p'), { $project: { o: 1 } }], [{ _id: 1, lf: 1, o: 5 }], [{ _id: 1, o: { p: [{ _id: 14, ff: 1, x: 5 }] } }]],
    ['a collection that does not exist matches nothing', [eq('lf', 'ff', 'j', 'nope')], [{ _id: 1, lf: 'a' }], [{ _id: 1, lf: 'a', j: [] }]],
    ['a view runs its pipeline first', [eq('lf', 'ff', 'j', 'v')], [{ _id: 1 }], [{ _id: 1, j: [{ _id: 12, ff: null }, { _id: 13 }, { _id: 15 }] }]],
  ]);

  it('follows the command collation', () => {
    const collator = new Collator({ locale: 'en', strength: 2 });
    expectExact(runWith(F, [eq('lf', 'ff'), ids()], [{ _id: 1, lf: 'a' }], { collator }), [{ _id: 1, j: [10, 11, 16] }]);
  });

  it('asks the query layer with the equality when foreignField is indexed', () => {
    const queries: ForeignQuery[] = [];
    const indexed: Foreign = { ...F, indexes: ['f.ff'] };
    const ctx = newPipelineContext({ now: NOW, runtime: foreignRuntime(indexed, queries), collection: 'local' });
    const out = Array.from(compilePipeline([eq('lf', 'ff'), ids()], ctx)([{ _id: 1, lf: ['a', 1] }]));
    expectExact(out, [{ _id: 1, j: [10, 11, 14] }]);
    expectExact(queries.map((q) => q.filter), [{ ff: { $in: ['a', 1] } }]);
  });

  it('joins 10,000 documents with 10,000 foreign ones in well under a second', () => {
    const foreign: Foreign = { collections: { big: Array.from({ length: 10_000 }, (_, i) => ({ _id: i, k: i % 5000 })) } };
    const input = Array.from({ length: 10_000 }, (_, i) => ({ _id: i, k: i }));
    const started = Date.now();
    const out = runWith(foreign, [{ $lookup: { from: 'big', localField: 'k', foreignField: 'k', as: 'j' } }, { $project: { n: { $size: '$j' } } }], input);
    const elapsed = Date.now() - started;
    expect(out.filter((d) => d.n === 2).length).toBe(5000);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe('$lookup let + pipeline', () => {
  table([
    [
      'the variables are visible in the sub-pipeline',
      [{ $lookup: { from: 'f', let: { want: '$lf' }, pipeline: [{ $match: { $expr: { $eq: ['$ff', '$$want'] } } }, { $project: { _id: 1 } }], as: 'j' } }],
      [{ _id: 1, lf: 'a' }, { _id: 2, lf: 1 }],
      [{ _id: 1, lf: 'a', j: [{ _id: 10 }] }, { _id: 2, lf: 1, j: [{ _id: 14 }] }],
    ],
    [
      'an uncorrelated pipeline',
      [{ $lookup: { from: 'f', pipeline: [{ $match: { x: { $lt: 3 } } }, { $project: { _id: 1 } }], as: 'j' } }],
      [{ _id: 1 }, { _id: 2 }],
      [{ _id: 1, j: [{ _id: 10 }, { _id: 11 }] }, { _id: 2, j: [{ _id: 10 }, { _id: 11 }] }],
    ],
    [
      'the equality first, then the pipeline',
      [{ $lookup: { from: 'f', localField: 'lf', foreignField: 'ff', let: { m: '$m' }, pipeline: [{ $match: { $expr: { $gt: ['$x', '$$m'] } } }, { $project: { _id: 1 } }], as: 'j' } }],
      [{ _id: 1, lf: 'a', m: 1 }],
      [{ _id: 1, lf: 'a', m: 1, j: [{ _id: 11 }] }],
    ],
    [
      'without from, over $documents',
      [{ $lookup: { let: { v: '$v' }, pipeline: [{ $documents: [{ a: 1 }, { a: 2 }] }, { $match: { $expr: { $eq: ['$a', '$$v'] } } }], as: 'j' } }],
      [{ _id: 1, v: 2 }],
      [{ _id: 1, v: 2, j: [{ a: 2 }] }],
    ],
    [
      '$documents with the equality after it',
      [{ $lookup: { localField: 'v', foreignField: 'a', pipeline: [{ $documents: [{ a: 1 }, { a: 2 }] }], as: 'j' } }],
      [{ _id: 1, v: 1 }],
      [{ _id: 1, v: 1, j: [{ a: 1 }] }],
    ],
    [
      'a nested $lookup sees the outer variables',
      [
        {
          $lookup: {
            from: 'f',
            let: { o: '$o' },
            pipeline: [{ $match: { _id: 10 } }, { $lookup: { from: 'f', let: { i: '$x' }, pipeline: [{ $match: { $expr: { $eq: ['$x', { $add: ['$$o', '$$i'] }] } } }, { $project: { _id: 1 } }], as: 'in' } }, { $project: { in: 1 } }],
            as: 'j',
          },
        },
      ],
      [{ _id: 1, o: new Int32(2) }],
      [{ _id: 1, o: 2, j: [{ _id: 10, in: [{ _id: 12 }] }] }],
    ],
  ]);
});

describe('$lookup errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a string spec', 'x', 9, 'the $lookup stage specification must be an object, but found string'],
    ['no from and no pipeline', { as: 'j' }, 9, "must specify 'pipeline' when 'from' is empty"],
    ['no from and no $documents', { pipeline: [{ $match: {} }], as: 'j' }, 9, '$lookup stage without explicit collection must have a pipeline with $documents as first stage'],
    ['from of a number', { from: 1, localField: 'a', foreignField: 'b', as: 'j' }, 9, "$lookup 'from' field must be a string, but found int"],
    ['from of another database', { from: { db: 'test', coll: 'x' }, localField: 'a', foreignField: 'b', as: 'j' }, 9, '$lookup with syntax {from: {db:<>, coll:<>},..} is not supported for db: test and coll: x'],
    ['from with an unknown field', { from: { x: 1 }, localField: 'a', foreignField: 'b', as: 'j' }, 40415, "BSON field 'from.x' is an unknown field."],
    ['an empty from', { from: '', localField: 'a', foreignField: 'b', as: 'j' }, 73, 'invalid $lookup namespace: test.'],
    ['an unknown field', { from: 'f', localField: 'a', foreignField: 'b', as: 'j', y: 1 }, 40415, "BSON field '$lookup.y' is an unknown field."],
    ['no as', { from: 'f', localField: 'a', foreignField: 'b' }, 40414, "BSON field '$lookup.as' is missing but a required field"],
    ['as of a number', { from: 'f', localField: 'a', foreignField: 'b', as: 1 }, 14, "BSON field '$lookup.as' is the wrong type 'int', expected type 'string'"],
    ['an empty as', { from: 'f', localField: 'a', foreignField: 'b', as: '' }, 40352, 'FieldPath cannot be constructed with empty string'],
    ['let of an array', { from: 'f', let: [], pipeline: [], as: 'j' }, 14, "BSON field '$lookup.let' is the wrong type 'array', expected type 'object'"],
    ['pipeline of a string', { from: 'f', pipeline: 'x', as: 'j' }, 14, "'pipeline' option must be specified as an array"],
    ['localField alone', { from: 'f', localField: 'a', as: 'j' }, 9, "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified"],
    ['localField alone with a pipeline', { from: 'f', localField: 'a', pipeline: [], as: 'j' }, 9, "$lookup requires both or neither of 'localField' and 'foreignField' to be specified"],
    ['let without pipeline', { from: 'f', localField: 'a', foreignField: 'b', let: { x: 1 }, as: 'j' }, 9, "$lookup with a 'let' argument must also specify 'pipeline'"],
    ['a $-prefixed localField', { from: 'f', localField: '$a', foreignField: 'b', as: 'j' }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['a path of 201 components', { from: 'f', localField: Array(201).fill('a').join('.'), foreignField: 'b', as: 'j' }, 15, 'FieldPath is too long'],
    ['an uppercase let name', { from: 'f', let: { Abc: 1 }, pipeline: [], as: 'j' }, 9, "'Abc' starts with an invalid character for a user variable name"],
    ['a let referring to itself', { from: 'f', let: { x: '$$x' }, pipeline: [], as: 'j' }, 17276, 'Use of undefined variable: x'],
    ['$out in the sub-pipeline', { from: 'f', pipeline: [{ $out: 'o' }], as: 'j' }, 51047, '$out is not allowed within a $lookup\'s sub-pipeline'],
    ['$documents after from', { from: 'f', pipeline: [{ $documents: [] }], as: 'j' }, 73, "'$documents' can only be run with {aggregate: 1}"],
    ['1001 stages', { from: 'f', pipeline: Array(1001).fill({ $match: {} }), as: 'j' }, 7749501, 'Pipeline length must be no longer than 1000 stages.'],
  ];
  for (const [name, spec, code, message] of cases) it(name, () => expectCommandError(() => parseWith(F, [{ $lookup: spec as Document }]), code, message));

  it('21 levels of nested sub-pipelines', () => {
    let pipeline: Document[] = [];
    for (let i = 0; i < 21; i++) pipeline = [{ $lookup: { from: 'f', pipeline, as: `l${i}` } }];
    expectCommandError(() => parseWith(F, pipeline), 232, 'Maximum number of nested sub-pipelines exceeded. Limit is 20');
  });

  it('a sibling $lookup does not see the other one\'s variables', () => {
    const pipeline = [{ $lookup: { from: 'f', let: { x: 1 }, pipeline: [], as: 'a' } }, { $lookup: { from: 'f', pipeline: [{ $addFields: { r: '$$x' } }], as: 'b' } }];
    expectCommandError(() => parseWith(F, pipeline), 17276, 'Invalid $addFields :: caused by :: Use of undefined variable: x');
  });
});
