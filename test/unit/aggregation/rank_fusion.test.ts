/** `$rankFusion` (and `$scoreFusion`'s checks): ranks, weights, score metadata, and the errors in mongod's order. */
import { describe, expect, it } from 'vitest';
import { Double, type Document } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { parseWith, runWith } from './foreign_runtime.js';

const DOCS: Document[] = [
  { _id: 1, a: 30, b: 10 },
  { _id: 2, a: 20, b: 30 },
  { _id: 3, a: 10, b: 20 },
];
const foreign = { collections: { local: DOCS }, views: { v: { source: 'local', pipeline: [{ $match: { a: { $gte: 20 } } }] } } };
const rrf = (...terms: Array<[number, number]>): number => terms.reduce((s, [rank, w]) => s + (1 / (rank + 60)) * w, 0);
const run = (spec: unknown, after: Document[] = [{ $project: { _id: 1, score: { $meta: 'score' } } }]): Document[] => runWith(foreign, [{ $rankFusion: spec }, ...after], []);

describe('$rankFusion scores', () => {
  it('sums weight / (60 + rank) over the pipelines, ordered by score then _id', () => {
    const out = run({ input: { pipelines: { p1: [{ $sort: { a: -1 } }], p2: [{ $sort: { b: -1 } }] } }, combination: { weights: { p1: 2 } } });
    expect(out).toEqual([
      { _id: 1, score: rrf([1, 2], [3, 1]) },
      { _id: 2, score: rrf([2, 2], [1, 1]) },
      { _id: 3, score: rrf([3, 2], [2, 1]) },
    ]);
  });

  it('gives documents equal under the last $sort one rank, the next rank jumping', () => {
    const tied = { collections: { local: [{ _id: 1, a: 1 }, { _id: 2, a: 1 }, { _id: 3, a: 0 }] } };
    const out = runWith(tied, [{ $rankFusion: { input: { pipelines: { p: [{ $sort: { a: -1 } }] } } } }, { $project: { _id: 1, score: { $meta: 'score' } } }], []);
    expect(out).toEqual([
      { _id: 1, score: rrf([1, 1]) },
      { _id: 2, score: rrf([1, 1]) },
      { _id: 3, score: rrf([3, 1]) },
    ]);
  });

  it('returns the documents themselves, and reads a view through its pipeline', () => {
    expect(run({ input: { pipelines: { p: [{ $sort: { a: 1 } }, { $limit: 1 }] } } }, [])).toEqual([{ _id: 3, a: 10, b: 20 }]);
    const out = runWith(foreign, [{ $rankFusion: { input: { pipelines: { p: [{ $sort: { a: -1 } }] } } } }, { $project: { _id: 1 } }], [], {});
    expect(out.map((d) => d._id)).toEqual([1, 2, 3]);
  });

  it('describes the fusion in scoreDetails, "NA" for a pipeline that did not return the document', () => {
    const out = run(
      { input: { pipelines: { p1: [{ $match: { _id: 1 } }, { $sort: { a: 1 } }], p2: [{ $match: { _id: 2 } }, { $sort: { a: 1 } }] } }, scoreDetails: true },
      [{ $match: { _id: 1 } }, { $project: { _id: 1, sd: { $meta: 'scoreDetails' } } }],
    );
    expect(out).toEqual([
      {
        _id: 1,
        sd: {
          value: rrf([1, 1]),
          description:
            'value output by reciprocal rank fusion algorithm, computed as sum of (weight * (1 / (60 + rank))) across input pipelines from which this document is output, from:',
          details: [
            { inputPipelineName: 'p1', rank: 1, weight: new Double(1), details: [] },
            { inputPipelineName: 'p2', rank: 'NA' },
          ],
        },
      },
    ]);
  });

  it('has no scoreDetails unless asked', () => {
    expectCommandError(() => run({ input: { pipelines: { p: [{ $sort: { a: 1 } }] } } }, [{ $project: { sd: { $meta: 'scoreDetails' } } }]), 40218, 'query requires scoreDetails metadata, but it is not available');
  });
});

describe('$rankFusion errors', () => {
  const sorted = [{ $sort: { a: 1 } }];
  const cases: Array<[string, unknown, number, string]> = [
    ['a non-object', 1, 9, 'The $rankFusion stage specification must be an object, found int'],
    ['no input', {}, 40414, "BSON field '$rankFusion.input' is missing but a required field"],
    ['an unknown field', { input: { pipelines: { p: sorted } }, bogus: 1 }, 40415, "BSON field '$rankFusion.bogus' is an unknown field."],
    ['a non-bool scoreDetails', { input: { pipelines: { p: sorted } }, scoreDetails: 1 }, 14, "BSON field '$rankFusion.scoreDetails' is the wrong type 'int', expected type 'bool'"],
    ['no pipelines', { input: { pipelines: {} } }, 2, '$rankFusion input must have at least one pipeline.'],
    ['an empty pipeline', { input: { pipelines: { p: [] } } }, 9834300, '$rankFusion input pipeline cannot be empty. All subpipelines to the $rankFusion stage must begin with one of $search, $vectorSearch, $geoNear, or have a custom $sort in the pipeline.'],
    ['an unranked pipeline', { input: { pipelines: { p: [{ $match: {} }] } } }, 9191100, 'Pipeline did not begin with a ranked stage and did not contain an explicit $sort stage. All subpipelines to the $rankFusion stage must begin with one of $search, $vectorSearch, $geoNear, or have a custom $sort in the pipeline.'],
    ['a transforming stage', { input: { pipelines: { p: [...sorted, { $project: { a: 1 } }] } } }, 9191103, '$project is not a selection stage because it modifies or transforms the input documents. Only stages that retrieve, limit, or order documents are allowed.'],
    ['a nested hybrid stage not first', { input: { pipelines: { p: [...sorted, { $rankFusion: { input: { pipelines: { q: sorted } } } }] } } }, 10170100, '$rankFusion is only allowed as the first stage of a pipeline'],
    ['a nested hybrid stage first', { input: { pipelines: { p: [{ $rankFusion: { input: { pipelines: { q: sorted } } } }] } } }, 10473002, '$rankFusion input pipeline has a nested hybrid search stage ($rankFusion/$scoreFusion). All subpipelines to the $rankFusion stage must begin with one of $search, $vectorSearch, $geoNear, or have a custom $sort in the pipeline.'],
    ['a dotted name', { input: { pipelines: { 'a.b': sorted } } }, 16412, "$rankFusion pipeline names must follow the naming rules of field path expressions. :: caused by :: FieldPath field names may not contain '.'. Consider using $getField or $setField."],
    ['a non-numeric weight', { input: { pipelines: { p: sorted } }, combination: { weights: { p: 'x' } } }, 13118, 'expected p to have a numeric type, but it is a string'],
    ['a negative weight', { input: { pipelines: { p: sorted } }, combination: { weights: { p: -1 } } }, 9460300, "rankFusion's pipeline weight must be non-negative, but given -1 for pipeline 'p'."],
    ['a weight of no pipeline', { input: { pipelines: { p1: sorted, p2: sorted } }, combination: { weights: { p3: 1 } } }, 9967500, "$rankFusion stage contained (1) weight(s) in 'combination.weights' that did not reference valid pipeline names. Suggestions for valid pipeline names: (provided: 'p3' -> suggestions: [p1, p2])"],
  ];
  for (const [name, spec, code, message] of cases) it(name, () => expectCommandError(() => parseWith(foreign, [{ $rankFusion: spec }]), code, message));

  it('is a first stage', () => {
    expectCommandError(() => parseWith(foreign, [{ $match: {} }, { $rankFusion: { input: { pipelines: { p: sorted } } } }]), 10170100, '$rankFusion is only allowed as the first stage of a pipeline');
  });

  it('answers SearchNotEnabled for a search stage, as mongod without a search node', () => {
    expectCommandError(
      () => parseWith(foreign, [{ $rankFusion: { input: { pipelines: { p: [{ $vectorSearch: {} }] } } } }]),
      31082,
      'Using $search and $vectorSearch aggregation stages requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable.For more information on how to connect, see https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.',
    );
  });

  it('$scoreFusion checks its normalization and needs scored pipelines', () => {
    expectCommandError(() => parseWith(foreign, [{ $scoreFusion: { input: { pipelines: { p: sorted }, normalization: 'x' } } }]), 2, "Enumeration value 'x' for field '$scoreFusion.input.normalization' is not a valid value.");
    expectCommandError(
      () => parseWith(foreign, [{ $scoreFusion: { input: { pipelines: { p: sorted }, normalization: 'none' } } }]),
      9402500,
      'Pipeline did not begin with a scored stage and did not contain an explicit $score stage. All subpipelines to the $scoreFusion stage must begin with one of $search, $vectorSearch, $rankFusion, $scoreFusion or have a custom $score in the pipeline.',
    );
  });
});
