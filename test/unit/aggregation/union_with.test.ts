/** `$unionWith`: a collection's documents after the input, through a sub-pipeline; views; `$documents`; errors. */
import { describe, it } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { expectCommandError, expectExact } from './helpers.js';
import { parseWith, runWith, type Foreign } from './foreign_runtime.js';

const F: Foreign = {
  collections: { o: [{ _id: 10, v: 1 }, { _id: 11, v: 2 }, { _id: 12, v: 3 }] },
  views: { big: { source: 'o', pipeline: [{ $match: { v: { $gte: 2 } } }] } },
};
const IN: Document[] = [{ _id: 1, v: 0 }];

describe('$unionWith', () => {
  const cases: Array<[string, Document[], Document[]]> = [
    ['a collection name', [{ $unionWith: 'o' }], [{ _id: 1, v: 0 }, { _id: 10, v: 1 }, { _id: 11, v: 2 }, { _id: 12, v: 3 }]],
    ['coll and pipeline', [{ $unionWith: { coll: 'o', pipeline: [{ $match: { v: 2 } }, { $project: { _id: 0, w: '$v' } }] } }], [{ _id: 1, v: 0 }, { w: 2 }]],
    ['a collection that does not exist adds nothing', [{ $unionWith: 'none' }], [{ _id: 1, v: 0 }]],
    ['a view runs its pipeline first', [{ $unionWith: { coll: 'big', pipeline: [{ $project: { v: 1, _id: 0 } }] } }], [{ _id: 1, v: 0 }, { v: 2 }, { v: 3 }]],
    ['without coll, over $documents', [{ $unionWith: { pipeline: [{ $documents: [{ d: 1 }] }] } }], [{ _id: 1, v: 0 }, { d: 1 }]],
    ['stages after it see both', [{ $unionWith: 'o' }, { $group: { _id: null, s: { $sum: '$v' } } }], [{ _id: null, s: 6 }]],
    ['nested', [{ $unionWith: { coll: 'o', pipeline: [{ $match: { v: 1 } }, { $unionWith: { coll: 'o', pipeline: [{ $match: { v: 3 } }] } }] } }], [{ _id: 1, v: 0 }, { _id: 10, v: 1 }, { _id: 12, v: 3 }]],
  ];
  for (const [name, pipeline, expected] of cases) it(name, () => expectExact(runWith(F, pipeline, IN), expected));
});

describe('$unionWith errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a number', 1, 9, 'the $unionWith stage specification must be an object or string, but found int'],
    ['no coll and no pipeline', {}, 9, '$unionWith stage without explicit collection must have a pipeline with $documents as first stage'],
    ['no coll and no $documents', { pipeline: [{ $match: {} }] }, 9, '$unionWith stage without explicit collection must have a pipeline with $documents as first stage'],
    ['coll of a number', { coll: 5 }, 14, "BSON field '$unionWith.coll' is the wrong type 'int', expected type 'string'"],
    ['an unknown field', { coll: 'o', x: 1 }, 40415, "BSON field '$unionWith.x' is an unknown field."],
    ['pipeline of a string', { coll: 'o', pipeline: 'x' }, 14, "'pipeline' option must be specified as an array"],
    ['an empty name', '', 73, 'Namespace testis not a valid collection name'],
    ['$out in the sub-pipeline', { coll: 'o', pipeline: [{ $out: 'x' }] }, 31441, "$out is not allowed within a $unionWith's sub-pipeline"],
    ['an unknown stage in the sub-pipeline', { coll: 'o', pipeline: [{ $nope: 1 }] }, 40324, "Unrecognized pipeline stage name: '$nope'"],
  ];
  for (const [name, spec, code, message] of cases) it(name, () => expectCommandError(() => parseWith(F, [{ $unionWith: spec as Document }]), code, message));
});
