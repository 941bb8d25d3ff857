import { describe, expect, it } from 'vitest';
import { Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { buildUpsertDocument, compileUpdate, type CompileUpdateOptions } from '../../../src/storage/update/compile_update.js';
import { compilePositionalMatcher } from '../../../src/storage/query/positional_match.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

const NOW = new Date(1_700_000_000_123);

function apply(doc: Document, update: Document | Document[], options: CompileUpdateOptions = {}, matchedField?: string) {
  return compileUpdate(update, options).apply(doc, { now: NOW, isUpsertInsert: false, matchedField });
}

type Case = [string, Document, Document, Document[] | undefined, Document, boolean];

function table(cases: Case[]): void {
  for (const [name, doc, update, arrayFilters, expected, modified] of cases) {
    it(name, () => {
      const r = apply(doc, update, { arrayFilters });
      expectExact(r.doc, expected);
      expect(r.modified).toBe(modified);
    });
  }
}

describe('$[] (all positional)', () => {
  table([
    ['increments every element', { _id: 1, a: [1, 2, 3] }, { $inc: { 'a.$[]': 10 } }, undefined, { _id: 1, a: [11, 12, 13] }, true],
    ['sets a field in every embedded document', { _id: 1, a: [{ b: 1 }, { b: 2 }] }, { $set: { 'a.$[].c': 0 } }, undefined, { _id: 1, a: [{ b: 1, c: 0 }, { b: 2, c: 0 }] }, true],
    ['nested arrays', { _id: 1, a: [[1, 2], [3]] }, { $inc: { 'a.$[].$[]': 1 } }, undefined, { _id: 1, a: [[2, 3], [4]] }, true],
    ['$unset of every element leaves nulls', { _id: 1, a: [1, 2] }, { $unset: { 'a.$[]': 1 } }, undefined, { _id: 1, a: [null, null] }, true],
    ['an empty array is a no-op', { _id: 1, a: [] }, { $set: { 'a.$[]': 1 } }, undefined, { _id: 1, a: [] }, false],
    ['same values everywhere is a no-op', { _id: 1, a: [5, 5] }, { $set: { 'a.$[]': 5 } }, undefined, { _id: 1, a: [5, 5] }, false],
    ['$push into every nested array', { _id: 1, a: [{ t: [1] }, { t: [] }] }, { $push: { 'a.$[].t': 9 } }, undefined, { _id: 1, a: [{ t: [1, 9] }, { t: [9] }] }, true],
    ['combined with a sibling path', { _id: 1, a: [{ b: 1 }], z: 0 }, { $set: { 'a.$[].b': 2, z: 1 } }, undefined, { _id: 1, a: [{ b: 2 }], z: 1 }, true],
  ]);
});

describe('$[<identifier>] with arrayFilters', () => {
  table([
    ['updates the matching scalars', { _id: 1, a: [1, 5, 10] }, { $set: { 'a.$[x]': 0 } }, [{ x: { $gte: 5 } }], { _id: 1, a: [1, 0, 0] }, true],
    [
      'updates a field of the matching documents',
      { _id: 1, grades: [{ grade: 80, mean: 75 }, { grade: 85, mean: 90 }, { grade: 85, mean: 85 }] },
      { $set: { 'grades.$[elem].mean': 100 } },
      [{ 'elem.grade': { $gte: 85 } }],
      { _id: 1, grades: [{ grade: 80, mean: 75 }, { grade: 85, mean: 100 }, { grade: 85, mean: 100 }] },
      true,
    ],
    [
      'two identifiers in one path',
      { _id: 0, a: [{ b: 0, c: [{ d: 0 }, { d: 1 }] }, { b: 1, c: [{ d: 0 }, { d: 1 }] }] },
      { $set: { 'a.$[i].c.$[j].d': 2 } },
      [{ 'i.b': 0 }, { 'j.d': 0 }],
      { _id: 0, a: [{ b: 0, c: [{ d: 2 }, { d: 1 }] }, { b: 1, c: [{ d: 0 }, { d: 1 }] }] },
      true,
    ],
    ['a logical filter', { _id: 0, a: [0, 1, 3] }, { $set: { 'a.$[i]': 2 } }, [{ $or: [{ i: 0 }, { i: 3 }] }], { _id: 0, a: [2, 1, 2] }, true],
    ['no element matches: no-op', { _id: 0, a: [1, 2] }, { $set: { 'a.$[i]': 0 } }, [{ i: 9 }], { _id: 0, a: [1, 2] }, false],
    [
      'disjoint identifiers on the same array',
      { _id: 0, a: [0, 1] },
      { $set: { 'a.$[i]': 'zero', 'a.$[j]': 'one' } },
      [{ i: 0 }, { j: 1 }],
      { _id: 0, a: ['zero', 'one'] },
      true,
    ],
    [
      'two identifiers matching one element merge different fields',
      { _id: 0, a: [{ x: 0 }] },
      { $set: { 'a.$[i].p': 1, 'a.$[j].q': 2 } },
      [{ 'i.x': 0 }, { 'j.x': 0 }],
      { _id: 0, a: [{ x: 0, p: 1, q: 2 }] },
      true,
    ],
    [
      'filters see the elements before the update',
      { _id: 0, a: [1, 2] },
      { $inc: { 'a.$[i]': 1 } },
      [{ i: 1 }],
      { _id: 0, a: [2, 2] },
      true,
    ],
    ['$[] and $[i] together', { _id: 0, a: [[1, 2], [3, 4]] }, { $set: { 'a.$[].$[i]': 0 } }, [{ i: { $gt: 2 } }], { _id: 0, a: [[1, 2], [0, 0]] }, true],
  ]);

  it('filters nested arrays by $elemMatch on the element', () => {
    const r = apply({ _id: 1, a: [[1, 2], [5]] }, { $set: { 'a.$[x]': 'hit' } }, { arrayFilters: [{ x: { $elemMatch: { $gt: 4 } } }] });
    expectExact(r.doc, { _id: 1, a: [[1, 2], 'hit'] });
  });
});

describe('array update errors', () => {
  const runtime: Array<[string, Document, Document, Document[] | undefined, number, string]> = [
    ['$[] on a missing field', { _id: 1 }, { $set: { 'x.$[]': 1 } }, undefined, 2, "The path 'x' must exist in the document in order to apply array updates."],
    ['$[] below a missing field', { _id: 1 }, { $set: { 'x.y.$[]': 1 } }, undefined, 2, "The path 'x.y' must exist in the document in order to apply array updates."],
    ['$[] on a scalar', { _id: 1, a: 5 }, { $set: { 'a.$[]': 1 } }, undefined, 2, 'Cannot apply array updates to non-array element a: 5'],
    ['$[i] on a document', { _id: 1, a: { b: 1 } }, { $set: { 'a.$[i]': 1 } }, [{ i: 1 }], 2, 'Cannot apply array updates to non-array element a: { b: 1 }'],
    ['$[] then a field of a scalar element', { _id: 1, a: [1] }, { $set: { 'a.$[].b': 1 } }, undefined, 28, "Cannot create field 'b' in element {0: 1}"],
    ['two identifiers updating one element', { _id: 1, a: [0] }, { $set: { 'a.$[i]': 2, 'a.$[j]': 3 } }, [{ i: 0 }, { j: 0 }], 40, "Update created a conflict at 'a.0'"],
    [
      'nested identifiers colliding',
      { _id: 0, a: [{ x: 0, b: [{ y: 0, c: 0 }] }, { x: 1, b: [{ y: 0, c: 0 }] }] },
      { $set: { 'a.$[i].b.$[k].c': 1, 'a.$[j].b.$[k].c': 2 } },
      [{ 'i.x': 0 }, { 'j.x': 0 }, { 'k.y': 0 }],
      40,
      "Update created a conflict at 'a.0.b.$[k].c'",
    ],
    ['$inc of a string element', { _id: 1, a: [1, 'x'] }, { $inc: { 'a.$[]': 1 } }, undefined, 14, "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field '1' of non-numeric type string"],
  ];
  for (const [name, doc, update, arrayFilters, code, message] of runtime) {
    it(name, () => expectCommandError(() => apply(doc, update, { arrayFilters }), code, message));
  }

  const parse: Array<[string, Document | Document[], Document[] | undefined, number, string]> = [
    ['an unused array filter', { $set: { 'a.$[i]': 5 } }, [{ i: 0 }, { j: 0 }], 9, "The array filter for identifier 'j' was not used in the update { $set: { a.$[i]: 5 } }"],
    ['the first unused identifier in sorted order', { $set: { b: 1 } }, [{ z: 0 }, { y: 0 }], 9, "The array filter for identifier 'y' was not used in the update { $set: { b: 1 } }"],
    ['a duplicate identifier', { $set: { 'a.$[i]': 5, 'a.$[j]': 6 } }, [{ i: 0 }, { j: 0 }, { i: 1 }], 9, 'Found multiple array filters with the same top-level field name i'],
    ['an identifier that is not lowercase-first', { $set: { 'a.$[I]': 5 } }, [{ I: 0 }], 2, "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'I'"],
    ['two top-level names', { $set: { 'a.$[i]': 5 } }, [{ i: 0, j: 1 }], 9, "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'i' and 'j'"],
    ['two names through $or', { $set: { 'a.$[i]': 5 } }, [{ $or: [{ i: 0 }, { j: 1 }] }], 9, "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'i' and 'j'"],
    ['an empty filter', { $set: { 'a.$[i]': 5 } }, [{}], 9, 'Cannot use an expression without a top-level field name in arrayFilters'],
    ['$expr in a filter', { $set: { 'a.$[i]': 5 } }, [{ $expr: { $eq: ['$i', 1] } }], 224, 'Error parsing array filter :: caused by :: $expr is not allowed in this context'],
    ['a bad query operator in a filter', { $set: { 'a.$[i]': 5 } }, [{ i: { $bogus: 1 } }], 2, 'Error parsing array filter :: caused by :: unknown operator: $bogus'],
    ['arrayFilters with a pipeline', [{ $set: { a: 1 } }], [{ i: 0 }], 9, 'arrayFilters may not be specified for pipeline-syle updates'],
    ['an identifier missing from the filters', { $set: { 'a.$[i]': 5 } }, [{ j: 0 }], 2, "No array filter found for identifier 'i' in path 'a.$[i]'"],
    ['$[i] and $ on the same array', { $set: { 'a.$[i]': 0, 'a.$': 0 } }, [{ i: 0 }], 40, "Updating the path 'a.$' would create a conflict at 'a'"],
    ['$[i] and an index on the same array', { $set: { 'a.$[i]': 0, 'a.0': 0 } }, [{ i: 0 }], 40, "Updating the path 'a.0' would create a conflict at 'a'"],
    ['$[] and a field on the same parent', { $set: { 'a.b': 0, 'a.$[]': 0 } }, undefined, 40, "Updating the path 'a.$[]' would create a conflict at 'a'"],
    ['the same $[i] path twice', { $set: { 'a.$[i]': 0 }, $inc: { 'a.$[i]': 1 } }, [{ i: 0 }], 40, "Updating the path 'a.$[i]' would create a conflict at 'a.$[i]'"],
    ['argument errors come before identifier errors', { $inc: { 'a.$[i]': 'x' } }, undefined, 14, "Cannot increment with non-numeric argument: {a.$[i]: \"x\"}"],
    ['$rename of a path with an unknown identifier', { $rename: { 'a.$[i]': 'b' } }, undefined, 2, "No array filter found for identifier 'i' in path 'a.$[i]'"],
    ['$rename of a dynamic source', { $rename: { 'a.$[]': 'b' } }, undefined, 2, 'The source field for $rename may not be dynamic: a.$[]'],
  ];
  for (const [name, update, arrayFilters, code, message] of parse) {
    it(name, () => expectCommandError(() => compileUpdate(update, { arrayFilters }), code, message));
  }
});

describe('positional $', () => {
  it('updates the matched element', () => {
    expectExact(apply({ _id: 1, a: [1, 2, 3] }, { $set: { 'a.$': 9 } }, {}, '1').doc, { _id: 1, a: [1, 9, 3] });
  });
  it('updates a field of the matched document', () => {
    expectExact(apply({ _id: 1, a: [{ b: 1 }, { b: 2 }] }, { $inc: { 'a.$.b': 5 } }, {}, '1').doc, { _id: 1, a: [{ b: 1 }, { b: 7 }] });
  });
  it('creates a field in the matched document', () => {
    expectExact(apply({ _id: 1, a: [{ b: 1 }] }, { $set: { 'a.$.c': 2 } }, {}, '0').doc, { _id: 1, a: [{ b: 1, c: 2 }] });
  });
  it('is resolved the same way at any depth', () => {
    expectExact(apply({ _id: 1, a: [{ b: [0, 0] }, { b: [0, 0] }] }, { $set: { 'a.1.b.$': 1 } }, {}, '0').doc, { _id: 1, a: [{ b: [0, 0] }, { b: [1, 0] }] });
  });
  it('applies in order with its siblings', () => {
    expectExact(apply({ _id: 1, a: [0, 0, 0] }, { $set: { 'a.$': 1, 'a.2': 2 } }, {}, '0').doc, { _id: 1, a: [1, 0, 2] });
  });
  it('without a match from the query is 2 BadValue', () => {
    expectCommandError(() => apply({ _id: 1, a: [1] }, { $set: { 'a.$': 1 } }), 2, 'The positional operator did not find the match needed from the query.');
  });
  it('merged with a sibling of the matched name is 40 on a collision', () => {
    expectCommandError(() => apply({ _id: 1, a: [0, 0] }, { $set: { 'a.$': 1, 'a.1': 2 } }, {}, '1'), 40, "Update created a conflict at 'a.1'");
  });
  it('merges with a sibling document path of the matched name', () => {
    expectExact(apply({ _id: 1, a: [{}, {}] }, { $set: { 'a.$.x': 1, 'a.1.y': 2 } }, {}, '1').doc, { _id: 1, a: [{}, { x: 1, y: 2 }] });
  });
  it('reports that it needs match details', () => {
    expect(compileUpdate({ $set: { 'a.$': 1 } }).positional).toBe(true);
    expect(compileUpdate({ $set: { 'a.$[]': 1 } }).positional).toBe(false);
  });
  it('an upsert cannot resolve it', () => {
    expectCommandError(
      () => buildUpsertDocument({ a: 1 }, compileUpdate({ $set: { 'a.$': 5 } }), { now: NOW, isUpsertInsert: true }, () => new ObjectId()),
      2,
      'The positional operator did not find the match needed from the query.',
    );
  });
  it('an upsert applies $[] to a seeded array', () => {
    const id = new ObjectId('65a000000000000000000001');
    const doc = buildUpsertDocument({ a: [1, 2] }, compileUpdate({ $inc: { 'a.$[]': 1 } }), { now: NOW, isUpsertInsert: true }, () => id);
    expectExact(doc, { _id: id, a: [2, 3] });
  });
  it('an upsert with $[] on a missing array fails', () => {
    expectCommandError(
      () => buildUpsertDocument({ b: 1 }, compileUpdate({ $set: { 'a.$[]': 1 } }), { now: NOW, isUpsertInsert: true }, () => new ObjectId()),
      2,
      "The path 'a' must exist in the document in order to apply array updates.",
    );
  });
});

describe('the query position ($ elemMatchKey)', () => {
  const cases: Array<[string, Document, Document, string | undefined]> = [
    ['an equality on an array field', { a: 2 }, { a: [1, 2, 3] }, '1'],
    ['a comparison', { a: { $gt: 1 } }, { a: [1, 2, 3] }, '1'],
    ['a dotted path into documents', { 'a.b': 2 }, { a: [{ b: 1 }, { b: 2 }] }, '1'],
    ['$elemMatch', { a: { $elemMatch: { b: 2, c: 3 } } }, { a: [{ b: 2, c: 1 }, { b: 2, c: 3 }] }, '1'],
    ['with an _id clause', { _id: 1, a: 3 }, { _id: 1, a: [1, 2, 3] }, '2'],
    ['a scalar field records nothing', { a: 1 }, { a: 1 }, undefined],
    ['$or records nothing', { $or: [{ a: 2 }] }, { a: [1, 2] }, undefined],
    ['a whole-array equality records nothing', { a: [1, 2] }, { a: [1, 2] }, undefined],
    ['a negation records nothing', { a: { $ne: 1 } }, { a: [2, 3] }, undefined],
    ['the outermost array wins', { 'a.b': 3 }, { a: [{ b: [1, 2] }, { b: [3] }] }, '1'],
    ['the last clause wins', { a: 1, b: 5 }, { a: [0, 1], b: [5] }, '0'],
    ['inside $and', { $and: [{ a: 2 }] }, { a: [1, 2] }, '1'],
    ['$in', { a: { $in: [7, 3] } }, { a: [1, 3, 7] }, '1'],
    ['each $all element is a clause, the last one wins', { a: { $all: [1, 3] } }, { a: [3, 2, 1] }, '0'],
    ['a regular expression', { a: /^b/ }, { a: ['apple', 'banana'] }, '1'],
    ['an explicit numeric index does not record', { 'a.1': 2 }, { a: [1, 2] }, undefined],
  ];
  for (const [name, filter, doc, expected] of cases) {
    it(name, () => expect(compilePositionalMatcher(filter)(doc)).toBe(expected));
  }
});

describe('$bit', () => {
  table([
    ['and of Int32', { _id: 1, a: 13 }, { $bit: { a: { and: 10 } } }, undefined, { _id: 1, a: 8 }, true],
    ['or with an Int64 makes an Int64', { _id: 1, a: 13 }, { $bit: { a: { or: Long.fromNumber(2) } } }, undefined, { _id: 1, a: Long.fromNumber(15) }, true],
    ['xor', { _id: 1, a: 13 }, { $bit: { a: { xor: 10 } } }, undefined, { _id: 1, a: 7 }, true],
    ['operations apply in the order written', { _id: 1, a: 13 }, { $bit: { a: { and: 12, or: 1 } } }, undefined, { _id: 1, a: 13 }, false],
    ['a missing field starts from Int32 0', { _id: 1 }, { $bit: { x: { or: 5 } } }, undefined, { _id: 1, x: 5 }, true],
    ['a missing field with an Int64 operand', { _id: 1 }, { $bit: { x: { xor: Long.fromNumber(3) } } }, undefined, { _id: 1, x: Long.fromNumber(3) }, true],
    ['negative numbers are two\'s complement', { _id: 1, a: -1 }, { $bit: { a: { and: 15 } } }, undefined, { _id: 1, a: 15 }, true],
    ['an Int64 stays an Int64', { _id: 1, a: Long.fromString('-9223372036854775808') }, { $bit: { a: { xor: -1 } } }, undefined, { _id: 1, a: Long.fromString('9223372036854775807') }, true],
    ['through $[]', { _id: 1, a: [1, 2] }, { $bit: { 'a.$[]': { or: 4 } } }, undefined, { _id: 1, a: [5, 6] }, true],
  ]);
  const errors: Array<[string, Document, Document, number, string]> = [
    ['a non-integral value', { _id: 1, a: 1.5 }, { $bit: { a: { and: 1 } } }, 2, 'Cannot apply $bit to a value of non-integral type._id: 1 has the field a of non-integer type double'],
    ['a string value', { _id: 'x', a: 's' }, { $bit: { a: { or: 1 } } }, 2, 'Cannot apply $bit to a value of non-integral type._id: "x" has the field a of non-integer type string'],
  ];
  for (const [name, doc, update, code, message] of errors) {
    it(name, () => expectCommandError(() => apply(doc, update), code, message));
  }
  const parseErrors: Array<[string, Document, number, string]> = [
    ['a scalar argument', { $bit: { a: 5 } }, 2, 'The $bit modifier is not compatible with a int. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}'],
    ['an unknown operation', { $bit: { a: { not: 1 } } }, 2, "The $bit modifier only supports 'and', 'or', and 'xor', not 'not' which is an unknown operator: {not: 1}"],
    ['a double operand', { $bit: { a: { and: 1.5 } } }, 2, "The $bit modifier field must be an Integer(32/64 bit); a 'double' is not supported here: {and: 1.5}"],
    ['no operation', { $bit: { a: {} } }, 2, 'You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}'],
  ];
  for (const [name, update, code, message] of parseErrors) {
    it(name, () => expectCommandError(() => compileUpdate(update), code, message));
  }
});
