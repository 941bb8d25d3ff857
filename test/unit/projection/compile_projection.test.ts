import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { compileProjection, isIdentityProjection } from '../../../src/storage/projection/compile_projection.js';
import { expectCommandError, expectExact } from '../aggregation/helpers.js';

const DOC: Document = {
  _id: 1,
  a: 1,
  b: { c: 2, d: 3 },
  e: [{ f: 1, g: 2 }, { f: 3 }, 5, [{ f: 7 }]],
  h: 'x',
};

describe('find projection: inclusion and exclusion', () => {
  const cases: Array<[string, Document, Document, Document]> = [
    ['includes in document order, _id by default', DOC, { h: 1, a: 1 }, { _id: 1, a: 1, h: 'x' }],
    ['excludes _id from an inclusion', DOC, { a: 1, _id: 0 }, { a: 1 }],
    ['includes with any non-zero number or true', DOC, { a: new Double(2.5), h: true }, { _id: 1, a: 1, h: 'x' }],
    ['includes with Long and Decimal128', DOC, { a: Long.fromNumber(1), h: Decimal128.fromString('1') }, { _id: 1, a: 1, h: 'x' }],
    ['excludes with 0, false, 0.0', DOC, { a: 0, b: false, e: new Double(0) }, { _id: 1, h: 'x' }],
    ['excludes _id alone', DOC, { _id: 0 }, { a: 1, b: { c: 2, d: 3 }, e: DOC.e, h: 'x' }],
    ['{_id: 1} alone is an inclusion', DOC, { _id: 1 }, { _id: 1 }],
    ['_id: 1 in an exclusion is allowed', DOC, { _id: 1, a: 0 }, { _id: 1, b: { c: 2, d: 3 }, e: DOC.e, h: 'x' }],
    ['dotted inclusion into a subdocument', DOC, { 'b.d': 1 }, { _id: 1, b: { d: 3 } }],
    ['nested sub-object inclusion', DOC, { b: { c: 1 } }, { _id: 1, b: { c: 2 } }],
    [
      'dotted inclusion into arrays of subdocuments (scalars dropped, nested arrays descended)',
      DOC,
      { 'e.f': 1 },
      { _id: 1, e: [{ f: 1 }, { f: 3 }, [{ f: 7 }]] },
    ],
    ['dotted inclusion through a scalar drops the field', { _id: 1, a: 5 }, { 'a.b': 1 }, { _id: 1 }],
    ['dotted exclusion', DOC, { 'b.c': 0, 'e.g': 0 }, { _id: 1, a: 1, b: { d: 3 }, e: [{ f: 1 }, { f: 3 }, 5, [{ f: 7 }]], h: 'x' }],
    ['missing fields are ignored', DOC, { zz: 1 }, { _id: 1 }],
    ['inclusion keeps the document order when _id is not first', { a: 1, _id: 2, b: 3 }, { b: 1 }, { _id: 2, b: 3 }],
  ];
  for (const [name, doc, spec, expected] of cases) {
    it(name, () => expectExact(compileProjection(spec)(doc), expected));
  }

  it('returns a new document and leaves the input untouched', () => {
    const input = { _id: 1, a: { b: 1 } };
    const out = compileProjection({ c: 0 })(input);
    expect(out).not.toBe(input);
    expectExact(input, { _id: 1, a: { b: 1 } });
  });
});

describe('find projection: computed fields', () => {
  const cases: Array<[string, Document, Document, Document]> = [
    ['a string literal', DOC, { x: 'lit' }, { _id: 1, x: 'lit' }],
    ['a field path', DOC, { x: '$b.c' }, { _id: 1, x: 2 }],
    ['$literal of a number (not an inclusion)', DOC, { x: { $literal: 0 } }, { _id: 1, x: 0 }],
    ['computed fields come after included ones, in spec order', DOC, { y: '$a', h: 1, x: '$h' }, { _id: 1, h: 'x', y: 1, x: 'x' }],
    ['a computed field over a scalar creates a subdocument', { _id: 1, a: 1 }, { 'a.b': { $literal: 1 } }, { _id: 1, a: { b: 1 } }],
    ['null literal', DOC, { x: null }, { _id: 1, x: null }],
    ['an array of expressions', DOC, { x: ['$a', '$h', '$zz'] }, { _id: 1, x: [1, 'x', null] }],
    ['a missing field path leaves the field out', DOC, { x: '$zz', a: 1 }, { _id: 1, a: 1 }],
    ['an expression operator', DOC, { x: { $add: ['$a', 1] } }, { _id: 1, x: 2 }],
  ];
  for (const [name, doc, spec, expected] of cases) {
    it(name, () => expectExact(compileProjection(spec)(doc), expected));
  }

  it('uses the given $$NOW', () => {
    const now = new Date(1_700_000_000_000);
    expectExact(compileProjection({ t: '$$NOW' }, { now })({ _id: 1 }), { _id: 1, t: now });
  });
});

describe('find projection: $slice and $elemMatch', () => {
  const arr = { _id: 1, a: 1, s: [1, 2, 3, 4, 5], n: { s: [1, 2, 3] } };
  const cases: Array<[string, Document, Document, Document]> = [
    ['$slice alone keeps every other field', arr, { s: { $slice: 2 } }, { _id: 1, a: 1, s: [1, 2], n: { s: [1, 2, 3] } }],
    ['$slice negative takes the end', arr, { s: { $slice: -2 } }, { _id: 1, a: 1, s: [4, 5], n: { s: [1, 2, 3] } }],
    ['$slice [skip, limit]', arr, { s: { $slice: [1, 2] } }, { _id: 1, a: 1, s: [2, 3], n: { s: [1, 2, 3] } }],
    ['$slice [negative skip, limit]', arr, { s: { $slice: [-2, 5] } }, { _id: 1, a: 1, s: [4, 5], n: { s: [1, 2, 3] } }],
    ['$slice with an inclusion includes the field', arr, { a: 1, s: { $slice: 1 } }, { _id: 1, a: 1, s: [1] }],
    ['$slice with _id: 1 is an inclusion', arr, { _id: 1, s: { $slice: 1 } }, { _id: 1, s: [1] }],
    ['$slice on a dotted path', arr, { 'n.s': { $slice: -1 } }, { _id: 1, a: 1, s: [1, 2, 3, 4, 5], n: { s: [3] } }],
    ['$slice on a non-array leaves it', arr, { a: { $slice: 1 } }, { _id: 1, a: 1, s: [1, 2, 3, 4, 5], n: { s: [1, 2, 3] } }],
  ];
  for (const [name, doc, spec, expected] of cases) {
    it(name, () => expectExact(compileProjection(spec)(doc), expected));
  }

  const em = { _id: 1, x: 'y', list: [{ k: 1, v: 'a' }, { k: 2, v: 'b' }, { k: 2, v: 'c' }] };
  it('$elemMatch returns the first matching element, after included fields', () => {
    expectExact(compileProjection({ list: { $elemMatch: { k: 2 } }, x: 1 })(em), { _id: 1, x: 'y', list: [{ k: 2, v: 'b' }] });
  });
  it('$elemMatch alone is an inclusion', () => {
    expectExact(compileProjection({ list: { $elemMatch: { k: 1 } } })(em), { _id: 1, list: [{ k: 1, v: 'a' }] });
  });
  it('$elemMatch with an exclusion replaces the field in place', () => {
    expectExact(compileProjection({ x: 0, list: { $elemMatch: { k: 2 } } })(em), { _id: 1, list: [{ k: 2, v: 'b' }] });
  });
  it('$elemMatch without a match omits the field', () => {
    expectExact(compileProjection({ list: { $elemMatch: { k: 9 } } })(em), { _id: 1 });
  });
});

describe('find projection: errors', () => {
  const cases: Array<[string, Document, number, string]> = [
    ['exclusion in an inclusion', { a: 1, b: 0 }, 31254, 'Cannot do exclusion on field b in inclusion projection'],
    ['inclusion in an exclusion', { a: 0, b: 1 }, 31253, 'Cannot do inclusion on field b in exclusion projection'],
    ['nested exclusion in an inclusion', { a: 1, b: { c: 0 } }, 31254, 'Cannot do exclusion on field c in inclusion projection'],
    ['literal in an exclusion', { a: 0, b: 'x' }, 31310, 'Cannot use an expression b: "x" in an exclusion projection'],
    ['expression in an exclusion', { a: 0, b: { $add: [1, 2] } }, 31252, 'Cannot use expression other than $meta in exclusion projection'],
    ['path collision: prefix first', { a: 1, 'a.b': 1 }, 31249, 'Path collision at a.b remaining portion b'],
    ['path collision: prefix last', { 'a.b': 1, a: 1 }, 31250, 'Path collision at a'],
    ['path collision: deeper', { 'a.b': 1, 'a.b.c': 1 }, 31249, 'Path collision at a.b.c remaining portion b.c'],
    ['$-prefixed field', { $a: 1 }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['empty path component', { 'a..b': 1 }, 15998, 'FieldPath field names may not be empty strings.'],
    ['trailing dot', { 'a.': 1 }, 40353, "FieldPath must not end with a '.'."],
    ['empty field name', { '': 1 }, 40352, 'FieldPath cannot be constructed with empty string'],
    ['unknown operator in a sub-object', { a: { $foo: 1 } }, 31325, 'Unknown expression $foo'],
    ['unknown operator inside an expression', { a: { $add: [{ $foo: 1 }] } }, 168, "Unrecognized expression '$foo'"],
    ['$slice of a string', { a: { $slice: 'x' } }, 31273, '$slice only supports numbers and [skip, limit] arrays'],
    ['$slice array of three', { a: { $slice: [1, 2, 3] } }, 31272, '$slice array argument should be of form [skip, limit]'],
    ['$slice non-numeric skip', { a: { $slice: ['x', 2] } }, 31257, '$slice expects the skip argument to be a number, got string'],
    ['$slice non-numeric limit', { a: { $slice: [1, 'x'] } }, 31258, '$slice expects the limit argument to be a number, got string'],
    ['$slice zero limit', { a: { $slice: [1, 0] } }, 31259, '$slice limit must be positive, got 0'],
    ['$elemMatch of a number', { a: { $elemMatch: 1 } }, 31274, 'elemMatch: Invalid argument, object required, but got int'],
    ['$elemMatch on a nested field', { 'a.b': { $elemMatch: { c: 1 } } }, 31275, 'Cannot use $elemMatch projection on a nested field.'],
    ['positional with a sub-object', { 'a.$': { b: 1 } }, 31271, 'positional projection cannot be used with an expression or sub object'],
    ['positional with a literal', { 'a.$': 'x' }, 31308, 'positional projection cannot be used with a literal'],
    ['positional with exclusion', { 'a.$': 0 }, 31395, 'positional projection cannot be used with exclusion'],
    ['known but unsupported expression', { a: { $toUpper: '$h' }, b: { $encStrStartsWith: { input: '$h', prefix: 'a' } } }, 238, 'Expression $encStrStartsWith is not supported by Mayfly yet'],
  ];
  for (const [name, spec, code, message] of cases) {
    it(name, () => expectCommandError(() => compileProjection(spec), code, message));
  }
});

describe('isIdentityProjection', () => {
  it('is true for no projection and {}', () => {
    expect([isIdentityProjection(undefined), isIdentityProjection({})]).toEqual([true, true]);
  });
  it('is false for any field', () => {
    expect([isIdentityProjection({ a: 1 }), isIdentityProjection({ _id: 1 })]).toEqual([false, false]);
  });
  it('keeps BSON values of a projection of ObjectId ids', () => {
    const id = new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1');
    expectExact(compileProjection({ a: 1 })({ _id: id, a: 1, b: 2 }), { _id: id, a: 1 });
  });
});
