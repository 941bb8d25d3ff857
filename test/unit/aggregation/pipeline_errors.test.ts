import { describe, it } from 'vitest';
import { Decimal128, type Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectCommandError } from './helpers.js';

const CTX = { now: new Date(0) };

describe('pipeline and stage parse errors', () => {
  const cases: Array<[string, unknown[], number, string]> = [
    ['a stage that is not a document', [1], 14, "Each element of the 'pipeline' array must be an object"],
    ['a stage with two fields', [{ $match: {}, $limit: 1 }], 40323, 'A pipeline stage specification object must contain exactly one field.'],
    ['an empty stage', [{}], 40323, 'A pipeline stage specification object must contain exactly one field.'],
    ['an unknown stage', [{ $foo: 1 }], 40324, "Unrecognized pipeline stage name: '$foo'"],
    ['a known but unsupported stage', [{ $score: {} }], 238, '$score is not supported by Mayfly yet'],
    ['$out before another stage', [{ $out: 'x' }, { $match: {} }], 40601, '$out can only be the final stage in the pipeline'],
    ['$out of a number', [{ $out: 1 }], 16990, '$out only supports a string or object argument, but found int'],
    ['$documents after another stage', [{ $match: {} }, { $documents: [] }], 40602, '$documents is only valid as the first stage in a pipeline'],
    ['$documents over a collection', [{ $documents: [] }], 73, "'$documents' can only be run with {aggregate: 1}"],
    ['$match of a number', [{ $match: 1 }], 15959, 'the match filter must be an expression in an object'],
    ['$sort of a number', [{ $sort: 1 }], 15973, 'the $sort key specification must be an object'],
    ['$sort of nothing', [{ $sort: {} }], 15976, '$sort stage must have at least one sort key'],
    ['$sort bad order', [{ $sort: { a: 2 } }], 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    ['$skip of a string', [{ $skip: 'x' }], 5107200, 'invalid argument to $skip stage: Expected a number in: $skip: "x"'],
    ['$skip negative', [{ $skip: -1 }], 5107200, 'invalid argument to $skip stage: Expected a non-negative number in: $skip: -1'],
    ['$skip fractional', [{ $skip: 1.5 }], 5107200, 'invalid argument to $skip stage: Expected an integer: $skip: 1.5'],
    ['$skip NaN', [{ $skip: NaN }], 5107200, 'invalid argument to $skip stage: Expected an integer, but found NaN in: $skip: nan.0'],
    ['$skip fractional Decimal128', [{ $skip: Decimal128.fromString('1.5') }], 5107200, 'invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: 1.5'],
    ['$limit zero', [{ $limit: 0 }], 15958, 'the limit must be positive'],
    ['$limit negative', [{ $limit: -2 }], 5107201, 'invalid argument to $limit stage: Expected a non-negative number in: $limit: -2'],
    ['$limit of an array', [{ $limit: [1] }], 5107201, 'invalid argument to $limit stage: Expected a number in: $limit: [ 1 ]'],
    ['$count of a number', [{ $count: 1 }], 40156, 'the count field must be a non-empty string'],
    ['$count empty', [{ $count: '' }], 40157, 'the count field must be a non-empty string'],
    ['$count $-prefixed', [{ $count: '$n' }], 40158, 'the count field cannot be a $-prefixed path'],
    ['$count with a null byte', [{ $count: 'a\0b' }], 40159, 'the count field cannot contain a null byte'],
    ['$count dotted', [{ $count: 'a.b' }], 40160, "the count field cannot contain '.'"],
    ['$group of a number', [{ $group: 1 }], 15947, "a group's fields must be specified in an object"],
    ['$group without _id', [{ $group: { n: { $sum: 1 } } }], 15955, 'a group specification must include an _id'],
    ['$group field not an accumulator', [{ $group: { _id: null, n: 1 } }], 40234, "The field 'n' must be an accumulator object"],
    ['$group non-accumulator field outranks a missing _id', [{ $group: { n: 1 } }], 40234, "The field 'n' must be an accumulator object"],
    ['$group dotted field', [{ $group: { _id: null, 'a.b': { $sum: 1 } } }], 40235, "The field name 'a.b' cannot contain '.'"],
    ['$group operator field name', [{ $group: { _id: null, $a: { $sum: 1 } } }], 40236, "The field name '$a' cannot be an operator name"],
    ['$group two accumulators', [{ $group: { _id: null, n: { $sum: 1, $avg: 1 } } }], 40238, "The field 'n' must specify one accumulator"],
    ['$group array argument', [{ $group: { _id: null, n: { $sum: [1, 2] } } }], 40237, 'The $sum accumulator is a unary operator'],
    ['$group unknown accumulator', [{ $group: { _id: null, n: { $foo: 1 } } }], 15952, "unknown group operator '$foo'"],
    ['$group unsupported accumulator', [{ $group: { _id: null, n: { $accumulator: '$a' } } }], 238, 'The $accumulator accumulator is not supported by Mayfly yet'],
    ['$group $count with arguments', [{ $group: { _id: null, n: { $count: { a: 1 } } } }], 14, '$count takes no arguments, i.e. $count:{}'],
    ['$group bad expression', [{ $group: { _id: { $foo: 1 } } }], 168, "Unrecognized expression '$foo'"],
    ['$project of a number', [{ $project: 1 }], 15969, '$project specification must be an object'],
    ['$project empty', [{ $project: {} }], 51272, 'Invalid $project :: caused by :: projection specification must have at least one field'],
    ['$project mixing', [{ $project: { a: 1, b: 0 } }], 31254, 'Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection'],
    ['$project $-field', [{ $project: { $a: 1 } }], 16410, "Invalid $project :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['$project unknown expression', [{ $project: { a: { $foo: 1 } } }], 31325, 'Invalid $project :: caused by :: Unknown expression $foo'],
    ['$project $elemMatch', [{ $project: { a: { $elemMatch: { b: 1 } } } }], 168, 'Invalid $project :: caused by :: Cannot use $elemMatch in this context'],
    ['$project positional', [{ $project: { 'a.$': 1 } }], 31324, 'Invalid $project :: caused by :: Cannot use positional projection in aggregation projection'],
    ['$addFields of a string', [{ $addFields: 'x' }], 40272, '$addFields specification stage must be an object, got string'],
    ['$set of a number names $set', [{ $set: 1 }], 40272, '$set specification stage must be an object, got int'],
    [
      '$addFields conflicting paths',
      [{ $addFields: { a: 1, 'a.b': 2 } }],
      40176,
      "Invalid $addFields :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.b' and 'a': { a: 1, a.b: 2 }",
    ],
    [
      '$addFields two-field expression',
      [{ $addFields: { a: { $add: [1], b: 1 } } }],
      40181,
      'Invalid $addFields :: caused by :: an expression specification must contain exactly one field, the name of the expression. Found 2 fields in { $add: [ 1 ], b: 1 }, while parsing object { a: { $add: [ 1 ], b: 1 } }',
    ],
    [
      '$addFields dotted sub-object field',
      [{ $addFields: { a: { 'b.c': 1 } } }],
      40183,
      "Invalid $addFields :: caused by :: cannot use dotted field name 'b.c' in a sub object: { a: { b.c: 1 } }",
    ],
    ['$addFields unknown expression', [{ $addFields: { a: { $foo: 1 } } }], 168, "Invalid $addFields :: caused by :: Unrecognized expression '$foo'"],
    ['$unset of a number', [{ $unset: 1 }], 31002, '$unset specification must be a string or an array'],
    ['$unset empty list', [{ $unset: [] }], 31119, '$unset specification must be a string or an array with at least one field'],
    ['$unset non-string list', [{ $unset: ['a', 1] }], 31120, '$unset specification must be a string or an array containing only string values'],
    ['$unset empty field', [{ $unset: '' }], 40352, 'Invalid $project :: caused by :: FieldPath cannot be constructed with empty string'],
    ['$unwind of a number', [{ $unwind: 1 }], 15981, 'expected either a string or an object as specification for $unwind stage, got int'],
    ['$unwind without $', [{ $unwind: 'a' }], 28818, "path option to $unwind stage should be prefixed with a '$': a"],
    ['$unwind empty', [{ $unwind: '' }], 28812, 'no path specified to $unwind stage'],
    ['$unwind without path', [{ $unwind: {} }], 28812, 'no path specified to $unwind stage'],
    ['$unwind unknown option', [{ $unwind: { path: '$a', x: 1 } }], 28811, 'unrecognized option to $unwind stage: x'],
    ['$unwind non-string path', [{ $unwind: { path: 1 } }], 28808, 'expected a string as the path for $unwind stage, got int'],
    [
      '$unwind non-boolean preserve',
      [{ $unwind: { path: '$a', preserveNullAndEmptyArrays: 1 } }],
      28809,
      'expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got int',
    ],
    [
      '$unwind empty includeArrayIndex',
      [{ $unwind: { path: '$a', includeArrayIndex: '' } }],
      28810,
      'expected a non-empty string for the includeArrayIndex  option to $unwind stage, got string',
    ],
    [
      '$unwind $-prefixed includeArrayIndex',
      [{ $unwind: { path: '$a', includeArrayIndex: '$i' } }],
      28822,
      "includeArrayIndex option to $unwind stage should not be prefixed with a '$': $i",
    ],
    ['$replaceRoot of a string', [{ $replaceRoot: 'x' }], 40229, 'expected an object as specification for $replaceRoot stage, got string'],
    ['$replaceRoot unknown field', [{ $replaceRoot: { x: 1 } }], 40415, "BSON field '$replaceRoot.x' is an unknown field."],
    ['$replaceRoot without newRoot', [{ $replaceRoot: {} }], 40414, "BSON field '$replaceRoot.newRoot' is missing but a required field"],
    ['$sortByCount of a number', [{ $sortByCount: 1 }], 40149, 'the sortByCount field must be specified as a string or as an object'],
    ['$sortByCount of a plain string', [{ $sortByCount: 'a' }], 40148, 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object'],
    ['$sortByCount of a plain object', [{ $sortByCount: { a: 1 } }], 40147, 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object'],
  ];
  for (const [name, pipeline, code, message] of cases) {
    it(name, () => expectCommandError(() => compilePipeline(pipeline as Document[], newPipelineContext(CTX)), code, message));
  }
});

describe('run-time stage errors', () => {
  const cases: Array<[string, Document[], Document[], number, string]> = [
    [
      '$replaceRoot to a number',
      [{ $replaceRoot: { newRoot: '$a.b' } }],
      [{ _id: 1, a: { b: 10 }, c: 123 }],
      40228,
      "'newRoot' expression  must evaluate to an object, but resulting value was: 10. Type of resulting value: 'int'. Input document: {_id: 1, a: {b: 10}, c: 123}",
    ],
    [
      '$replaceRoot to a missing field',
      [{ $replaceRoot: { newRoot: '$x' } }],
      [{ _id: 1 }],
      40228,
      "'newRoot' expression  must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {_id: 1}",
    ],
    [
      '$replaceWith an array',
      [{ $replaceWith: '$list' }],
      [{ list: [] }],
      40228,
      "'replacement document' must evaluate to an object, but resulting value was: []. Type of resulting value: 'array'. Input document: {list: []}",
    ],
    ['an expression error surfaces while iterating', [{ $project: { x: { $divide: ['$a', 0] } } }], [{ a: 1 }], 2, "can't $divide by zero"],
  ];
  for (const [name, pipeline, docs, code, message] of cases) {
    it(name, () => expectCommandError(() => Array.from(compilePipeline(pipeline, newPipelineContext(CTX))(docs)), code, message));
  }
});
