import { describe, it } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
import { compileUpdate } from '../../../src/storage/update/compile_update.js';
import { expectCommandError } from '../aggregation/helpers.js';

const CTX = { now: new Date(0), isUpsertInsert: false };

describe('update validation errors (at compile time)', () => {
  const cases: Array<[string, Document | Document[], number, string]> = [
    [
      'unknown modifier',
      { $foo: { a: 1 } },
      9,
      'Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array',
    ],
    [
      'a plain field after an operator',
      { $set: { a: 1 }, b: 1 },
      9,
      'Unknown modifier: b. Expected a valid update modifier or pipeline-style update specified as an array',
    ],
    [
      'operator argument not a document',
      { $set: 1 },
      9,
      'Modifiers operate on fields but we found type int instead. For example: {$mod: {<field>: ...}} not {$set: 1}',
    ],
    ['conflict on the same path', { $set: { a: 1 }, $inc: { a: 1 } }, 40, "Updating the path 'a' would create a conflict at 'a'"],
    ['conflict with a prefix first', { $set: { a: 1, 'a.b': 2 } }, 40, "Updating the path 'a.b' would create a conflict at 'a'"],
    ['conflict with a prefix last', { $set: { 'a.b': 2 }, $unset: { a: 1 } }, 40, "Updating the path 'a' would create a conflict at 'a'"],
    ['conflict with a $rename source', { $rename: { a: 'b' }, $set: { a: 1 } }, 40, "Updating the path 'a' would create a conflict at 'a'"],
    ['empty path', { $set: { '': 1 } }, 56, 'An empty update path is not valid.'],
    ['empty path component', { $set: { 'a..b': 1 } }, 56, "The update path 'a..b' contains an empty field name, which is not allowed."],
    ['$inc non-numeric argument', { $inc: { a: 'x' } }, 14, 'Cannot increment with non-numeric argument: {a: "x"}'],
    ['$mul non-numeric argument', { $mul: { a: null } }, 14, 'Cannot multiply with non-numeric argument: {a: null}'],
    ['$rename to a non-string', { $rename: { a: 1 } }, 2, "The 'to' field for $rename must be a string: a: 1"],
    ['$rename to itself', { $rename: { a: 'a' } }, 2, 'The source and target field for $rename must differ: a: "a"'],
    ['$rename onto its own path', { $rename: { a: 'a.b' } }, 2, 'The source and target field for $rename must not be on the same path: a: "a.b"'],
    ['$push unknown clause', { $push: { a: { $each: [1], $foo: 1 } } }, 2, 'Unrecognized clause in $push: $foo'],
    ['$push $each not an array', { $push: { a: { $each: 1 } } }, 2, 'The argument to $each in $push must be an array but it was of type: int'],
    ['$push $slice not an integer', { $push: { a: { $each: [1], $slice: 'x' } } }, 2, 'The value for $slice must be an integer value but was given type: string'],
    ['$push $position not an integer', { $push: { a: { $each: [1], $position: 1.5 } } }, 2, 'The value for $position must be an integer value, not of type: double'],
    ['$push $sort bad order', { $push: { a: { $each: [1], $sort: 2 } } }, 2, 'The $sort element value must be either 1 or -1'],
    ['$push $sort empty pattern', { $push: { a: { $each: [1], $sort: {} } } }, 2, 'The $sort pattern is empty when it should be a set of fields.'],
    [
      '$push $sort of a string',
      { $push: { a: { $each: [1], $sort: 'x' } } },
      2,
      'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
    ],
    ['$addToSet $each not an array', { $addToSet: { a: { $each: 1 } } }, 14, 'The argument to $each in $addToSet must be an array but it was of type int'],
    ['$addToSet extra fields after $each', { $addToSet: { a: { $each: [1], b: 1 } } }, 2, 'Found unexpected fields after $each in $addToSet: { $each: [ 1 ], b: 1 }'],
    ['$pop of 2', { $pop: { a: 2 } }, 9, '$pop expects 1 or -1, found: 2'],
    ['$pop of a string', { $pop: { a: 'x' } }, 9, 'Expected a number in: a: "x"'],
    ['$pullAll of a scalar', { $pullAll: { a: 1 } }, 2, '$pullAll requires an array argument but was given a int'],
    ['$currentDate of a number', { $currentDate: { a: 1 } }, 2, "int is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."],
    ['$currentDate bad $type', { $currentDate: { a: { $type: 'x' } } }, 2, "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"],
    ['$currentDate unknown option', { $currentDate: { a: { x: 1 } } }, 2, 'Unrecognized $currentDate option: x'],
    ['array filter identifier first', { $set: { '$[].a': 1 } }, 2, "Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '$[].a'"],
    ['identifier without an array filter', { $set: { 'a.$[i]': 1 } }, 2, "No array filter found for identifier 'i' in path 'a.$[i]'"],
    ['positional first', { $set: { '$.a': 1 } }, 2, "Cannot have positional (i.e. '$') element in the first position in path '$.a'"],
    ['two positionals', { $set: { 'a.$.b.$': 1 } }, 2, "Too many positional (i.e. '$') elements found in path 'a.$.b.$'"],
    ['$bit with a scalar', { $bit: { a: 5 } }, 2, 'The $bit modifier is not compatible with a int. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}'],
    [
      'replacement with a $-prefixed field',
      { a: 1, $set: { b: 1 } },
      52,
      "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    ],
    ['pipeline with an unknown stage', [{ $foo: {} }], 40324, "Unrecognized pipeline stage name: '$foo'"],
    ['pipeline with a $match', [{ $match: {} }], 72, '$match is not allowed to be used within an update'],
    ['pipeline with a $lookup', [{ $lookup: { from: 'x', localField: 'a', foreignField: 'b', as: 'c' } }], 72, '$lookup is not allowed to be used within an update'],
    ['pipeline stage with two fields', [{ $set: { a: 1 }, $unset: 'b' }], 40323, 'A pipeline stage specification object must contain exactly one field.'],
  ];
  for (const [name, update, code, message] of cases) {
    it(name, () => expectCommandError(() => compileUpdate(update), code, message));
  }
});

describe('update errors when applied', () => {
  const cases: Array<[string, Document, Document | Document[], number, string]> = [
    [
      '$inc on a string',
      { _id: 1, a: 'x' },
      { $inc: { a: 1 } },
      14,
      "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'a' of non-numeric type string",
    ],
    [
      '$mul on a document',
      { _id: 'k', a: { b: 1 } },
      { $mul: { a: 2 } },
      14,
      "Cannot apply $mul to a value of non-numeric type. {_id: \"k\"} has the field 'a' of non-numeric type object",
    ],
    [
      '$inc overflowing Int64',
      { _id: 1, a: Long.MAX_VALUE },
      { $inc: { a: 1 } },
      2,
      'Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: 1}',
    ],
    ['$set of _id', { _id: 1 }, { $set: { _id: 2 } }, 66, "Performing an update on the path '_id' would modify the immutable field '_id'"],
    ['$unset of _id', { _id: 1 }, { $unset: { _id: 1 } }, 66, "Performing an update on the path '_id' would modify the immutable field '_id'"],
    ['$set inside _id', { _id: { a: 1 } }, { $set: { '_id.a': 2 } }, 66, "Performing an update on the path '_id.a' would modify the immutable field '_id'"],
    ['$rename of _id', { _id: 1 }, { $rename: { _id: 'x' } }, 66, "Unsetting the path '_id' using $rename would modify the immutable field '_id'"],
    ['$set through a scalar', { _id: 1, a: 1 }, { $set: { 'a.b': 1 } }, 28, "Cannot create field 'b' in element {a: 1}"],
    ['$set a name in an array', { _id: 1, a: [1, 2] }, { $set: { 'a.b': 1 } }, 28, "Cannot create field 'b' in element {a: [ 1, 2 ]}"],
    ['$push on a non-array', { _id: 1, a: 1 }, { $push: { a: 2 } }, 2, "The field 'a' must be an array but is of type int in document {_id: 1}"],
    [
      '$addToSet on a non-array',
      { _id: 1, a: 'x' },
      { $addToSet: { a: 2 } },
      2,
      "Cannot apply $addToSet to non-array field. Field named 'a' has non-array type string",
    ],
    ['$pop on a non-array', { _id: 1, a: 1 }, { $pop: { a: 1 } }, 14, "Path 'a' contains an element of non-array type 'int'"],
    ['$pull on a non-array', { _id: 1, a: 1 }, { $pull: { a: 1 } }, 2, 'Cannot apply $pull to a non-array value'],
    ['$pullAll on a non-array', { _id: 1, a: 1 }, { $pullAll: { a: [1] } }, 2, 'Cannot apply $pull to a non-array value'],
    ['$pull through a scalar', { _id: 1, a: 1 }, { $pull: { 'a.b': 1 } }, 28, 'Cannot use the part (b) of (a.b) to traverse the element ({a: 1})'],
    [
      '$rename from through a scalar',
      { _id: 1, a: 1 },
      { $rename: { 'a.b': 'c' } },
      28,
      'cannot use the part (a of a.b) to traverse the element ({a: 1})',
    ],
    [
      '$rename from an array element',
      { _id: 1, a: [{ b: 1 }] },
      { $rename: { 'a.0.b': 'c' } },
      2,
      "The source field cannot be an array element, 'a.0.b' in doc with _id: 1 has an array field called 'a'",
    ],
    [
      '$rename into an array',
      { _id: 1, x: 1, a: [{}] },
      { $rename: { x: 'a.0.b' } },
      2,
      "The destination field cannot be an array element, 'a.0.b' in doc with _id: 1 has an array field called 'a'",
    ],
    [
      'top-level $-prefixed field created by $set',
      { _id: 1 },
      { $set: { $x: 1 } },
      52,
      "The dollar ($) prefixed field '$x' in '$x' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    ],
    [
      'replacement changing _id',
      { _id: 1, a: 1 },
      { _id: 2, a: 1 },
      66,
      "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2",
    ],
    [
      'pipeline changing _id',
      { _id: 1 },
      [{ $set: { _id: 'x' } }],
      66,
      "After applying the update, the (immutable) field '_id' was found to have been altered to _id: \"x\"",
    ],
  ];
  for (const [name, doc, update, code, message] of cases) {
    it(name, () => expectCommandError(() => compileUpdate(update).apply(doc, CTX), code, message));
  }
});
