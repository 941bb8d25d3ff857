import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { ExpressionContext } from '../../../src/storage/expression/context.js';
import { expectCommandError, expectExact } from './helpers.js';

const NOW = new Date(1_700_000_000_000);
const CTX = { now: NOW };
const DOC: Document = {
  _id: 1,
  i: 5,
  j: 2,
  d: 2.5,
  l: Long.fromNumber(10),
  dec: Decimal128.fromString('1.5'),
  s: 'Hello',
  n: null,
  arr: [1, 2, 3],
  sub: { x: 1, y: { z: 'deep' } },
  docs: [{ v: 1 }, { v: 2 }, { w: 3 }, 4, [{ v: 5 }]],
  date: new Date(1000),
  big: 2147483647,
};

function evaluate(expr: unknown, doc: Document = DOC): unknown {
  return new ExpressionContext(CTX).compile(expr)(doc);
}

function table(cases: Array<[string, unknown, unknown]>): void {
  for (const [name, expr, expected] of cases) {
    it(name, () => expectExact({ v: evaluate(expr) }, { v: expected }));
  }
}

describe('field paths and variables', () => {
  table([
    ['a top-level field', '$i', 5],
    ['a nested field', '$sub.y.z', 'deep'],
    ['through an array of documents (non-documents skipped, missing dropped)', '$docs.v', [1, 2]],
    ['$$ROOT', '$$ROOT.sub.x', 1],
    ['$$CURRENT', '$$CURRENT.i', 5],
    ['$$NOW', '$$NOW', NOW],
    ['a constant', 7, 7],
    ['a Double constant keeps its type', new Double(3), new Double(3)],
    ['an object of expressions (missing fields omitted)', { a: '$i', b: '$nope', c: { d: '$s' } }, { a: 5, c: { d: 'Hello' } }],
    ['an array of expressions (missing becomes null)', ['$i', '$nope'], [5, null]],
    ['$literal keeps $-strings', { $literal: '$i' }, '$i'],
    ['$literal of an object', { $literal: { $add: 1 } }, { $add: 1 }],
  ]);
  it('a missing field evaluates to undefined for external callers', () => {
    expect(evaluate('$nope')).toBe(undefined);
  });
  it('$$REMOVE is missing', () => {
    expect(evaluate('$$REMOVE')).toBe(undefined);
  });
});

describe('arithmetic', () => {
  table([
    ['$add Int32', { $add: ['$i', '$j'] }, 7],
    ['$add overflows Int32 into Int64', { $add: ['$big', 1] }, Long.fromString('2147483648')],
    ['$add with a Long', { $add: ['$i', '$l'] }, Long.fromNumber(15)],
    ['$add with a Double', { $add: ['$i', '$d'] }, 7.5],
    ['$add integral Double', { $add: [0.5, '$d'] }, new Double(3)],
    ['$add with a Decimal128', { $add: ['$i', '$dec'] }, Decimal128.fromString('6.5')],
    ['$add of a date and millis', { $add: ['$date', 500] }, new Date(1500)],
    ['$add with null is null', { $add: ['$i', null] }, null],
    ['$add with a missing field is null', { $add: ['$i', '$nope'] }, null],
    ['$add of nothing is 0', { $add: [] }, 0],
    ['$subtract Int32', { $subtract: ['$i', '$j'] }, 3],
    ['$subtract dates gives Int64 millis', { $subtract: [{ $add: ['$date', 250] }, '$date'] }, Long.fromNumber(250)],
    ['$subtract millis from a date', { $subtract: ['$date', 1000] }, new Date(0)],
    ['$subtract Decimal128', { $subtract: ['$dec', 1] }, Decimal128.fromString('0.5')],
    ['$subtract with null is null', { $subtract: [null, 1] }, null],
    ['$multiply', { $multiply: ['$i', '$j', 3] }, 30],
    ['$multiply with a Double', { $multiply: ['$i', 0.5] }, 2.5],
    ['$multiply overflows into Int64', { $multiply: [65536, 65536] }, Long.fromString('4294967296')],
    ['$divide always Double', { $divide: [10, 5] }, new Double(2)],
    ['$divide fractional', { $divide: ['$i', '$j'] }, 2.5],
    ['$divide Decimal128', { $divide: [Decimal128.fromString('1'), 4] }, Decimal128.fromString('0.25')],
    ['$mod Int32', { $mod: ['$i', 3] }, 2],
    ['$mod keeps the dividend sign', { $mod: [-5, 3] }, -2],
    ['$mod Double', { $mod: [5.5, 2] }, 1.5],
    ['$mod Long', { $mod: ['$l', 3] }, Long.fromNumber(1)],
    ['$abs Int32', { $abs: -3 }, 3],
    ['$abs of Int32 min is Int64', { $abs: -2147483648 }, Long.fromString('2147483648')],
    ['$abs Double', { $abs: -2.5 }, 2.5],
    ['$abs null', { $abs: null }, null],
  ]);
});

describe('comparison, boolean, conditional', () => {
  table([
    ['$eq across numeric types', { $eq: [1, new Double(1)] }, true],
    ['$eq missing vs null is false', { $eq: ['$nope', null] }, false],
    ['$ne', { $ne: ['$i', 5] }, false],
    ['$gt by BSON type order (string > number)', { $gt: ['$s', '$i'] }, true],
    ['$gte', { $gte: ['$i', 5] }, true],
    ['$lt missing < null', { $lt: ['$nope', null] }, true],
    ['$lte', { $lte: ['$d', 2] }, false],
    ['$cmp returns Int32', { $cmp: ['$i', 7] }, -1],
    ['$cmp equal', { $cmp: ['$s', 'Hello'] }, 0],
    ['$and', { $and: [1, 'x', true] }, true],
    ['$and with 0', { $and: [1, 0] }, false],
    ['$and of nothing', { $and: [] }, true],
    ['$or', { $or: [null, '$nope', 0, 'x'] }, true],
    ['$or of nothing', { $or: [] }, false],
    ['$not', { $not: ['$n'] }, true],
    ['$not of an empty array is false', { $not: [[]] }, false],
    ['$cond array form', { $cond: [{ $gt: ['$i', 3] }, 'big', 'small'] }, 'big'],
    ['$cond object form', { $cond: { if: '$n', then: 1, else: 2 } }, 2],
    ['$ifNull returns the first non-null', { $ifNull: ['$nope', '$n', '$s', 'x'] }, 'Hello'],
    ['$ifNull falls back to the last', { $ifNull: ['$nope', null] }, null],
  ]);
});

describe('strings, arrays, types', () => {
  table([
    ['$concat', { $concat: ['$s', ' ', 'World'] }, 'Hello World'],
    ['$concat with null', { $concat: ['$s', null] }, null],
    ['$toUpper (ASCII only)', { $toUpper: 'héllo' }, 'HéLLO'],
    ['$toLower', { $toLower: '$s' }, 'hello'],
    ['$toLower of a number', { $toLower: 12 }, '12'],
    ['$toUpper of null', { $toUpper: null }, ''],
    ['$substr', { $substr: ['$s', 1, 3] }, 'ell'],
    ['$substrBytes negative length takes the rest', { $substrBytes: ['$s', 2, -1] }, 'llo'],
    ['$substr past the end', { $substr: ['$s', 10, 2] }, ''],
    ['$size', { $size: '$arr' }, 3],
    ['$arrayElemAt', { $arrayElemAt: ['$arr', 1] }, 2],
    ['$arrayElemAt negative', { $arrayElemAt: ['$arr', -1] }, 3],
    ['$arrayElemAt null', { $arrayElemAt: [null, 0] }, null],
    ['$in', { $in: [2, '$arr'] }, true],
    ['$in numeric equivalence', { $in: [new Double(3), '$arr'] }, true],
    ['$in absent', { $in: ['x', '$arr'] }, false],
    ['$type int', { $type: '$i' }, 'int'],
    ['$type double', { $type: '$d' }, 'double'],
    ['$type long', { $type: '$l' }, 'long'],
    ['$type decimal', { $type: '$dec' }, 'decimal'],
    ['$type missing', { $type: '$nope' }, 'missing'],
    ['$type objectId', { $type: new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1') }, 'objectId'],
    ['$sum of an array', { $sum: '$arr' }, 6],
    ['$sum of arguments ignores non-numbers', { $sum: ['$i', '$s', '$d'] }, 7.5],
    ['$avg of an array', { $avg: '$arr' }, new Double(2)],
    ['$min of an array', { $min: '$arr' }, 1],
    ['$max of arguments', { $max: ['$i', '$j', '$n'] }, 5],
  ]);
  it('$arrayElemAt out of range is missing', () => {
    expect(evaluate({ $arrayElemAt: ['$arr', 5] })).toBe(undefined);
  });
});

describe('expression errors', () => {
  const parseErrors: Array<[string, unknown, number, string]> = [
    ['unknown operator', { $foo: 1 }, 168, "Unrecognized expression '$foo'"],
    ['known but not implemented', { $encStrContains: {} }, 238, 'Expression $encStrContains is not supported by Mayfly yet'],
    ['two fields in an operator object', { $add: [1], $subtract: [1, 2] }, 15983, 'An object representing an expression must have exactly one field: { $add: [ 1 ], $subtract: [ 1, 2 ] }'],
    ['wrong arity', { $abs: [1, 2] }, 16020, 'Expression $abs takes exactly 1 arguments. 2 were passed in.'],
    ['$substr arity uses $substrBytes', { $substr: ['a'] }, 16020, 'Expression $substrBytes takes exactly 3 arguments. 1 were passed in.'],
    ['$eq arity', { $eq: [1] }, 16020, 'Expression $eq takes exactly 2 arguments. 1 were passed in.'],
    ['$cond missing else', { $cond: { if: 1, then: 2 } }, 17082, "Missing 'else' parameter to $cond"],
    ['$cond missing if', { $cond: { then: 2, else: 3 } }, 17080, "Missing 'if' parameter to $cond"],
    ['$cond unknown parameter', { $cond: { if: 1, then: 2, else: 3, x: 4 } }, 17083, 'Unrecognized parameter to $cond: x'],
    ['$ifNull with one argument', { $ifNull: ['$a'] }, 1257300, '$ifNull needs at least two arguments, had: 1'],
    ['a bare $', '$', 16872, "'$' by itself is not a valid FieldPath"],
    ['an undefined variable', '$$foo', 17276, 'Use of undefined variable: foo'],
    ['an uppercase name is a valid read, of an undefined variable', '$$Foo', 17276, 'Use of undefined variable: Foo'],
    ['an invalid variable name (FailedToParse in 8.2)', '$$1foo', 9, "'1foo' starts with an invalid character for a user variable name"],
    ['an invalid character in a variable name', '$$a-b', 9, "'a-b' contains an invalid character for a variable name: '-'"],
    ['$$DESCEND outside $redact', '$$DESCEND', 17276, 'Use of undefined variable: DESCEND'],
    ['an empty path component', '$a..b', 15998, 'FieldPath field names may not be empty strings.'],
    ['a $-prefixed field in an object literal', { a: 1, $b: 2 }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
    ['a dotted field in an object literal', { 'a.b': 1 }, 16412, "FieldPath field names may not contain '.'. Consider using $getField or $setField."],
  ];
  for (const [name, expr, code, message] of parseErrors) {
    it(`compile: ${name}`, () => expectCommandError(() => new ExpressionContext(CTX).compile(expr), code, message));
  }

  const runErrors: Array<[string, unknown, number, string]> = [
    ['$add of a string', { $add: ['$i', '$s'] }, 14, '$add only supports numeric or date types, not string'],
    ['$add of two dates', { $add: ['$date', '$date'] }, 16612, 'only one date allowed in an $add expression'],
    ['$subtract a string', { $subtract: ['$i', '$s'] }, 14, "can't $subtract string from int"],
    ['$subtract a date from a number', { $subtract: ['$i', '$date'] }, 14, "can't $subtract date from int"],
    ['$multiply a string', { $multiply: ['$s', 2] }, 14, '$multiply only supports numeric types, not string'],
    ['$divide by zero', { $divide: ['$i', 0] }, 2, "can't $divide by zero"],
    ['$divide a string', { $divide: ['$s', 1] }, 14, '$divide only supports numeric types, not string and int'],
    ['$mod by zero', { $mod: ['$i', 0] }, 16610, "can't $mod by zero"],
    ['$mod a string', { $mod: ['$s', 2] }, 16611, '$mod only supports numeric types, not string and int'],
    ['$abs of a string', { $abs: '$s' }, 28765, '$abs only supports numeric types, not string'],
    ['$concat of a number', { $concat: ['$s', 1] }, 16702, '$concat only supports strings, not int'],
    ['$toUpper of an object', { $toUpper: '$sub' }, 16007, "can't convert from BSON type object to String"],
    ['$substr start not a number', { $substr: ['$s', 'x', 1] }, 16034, '$substrBytes:  starting index must be a numeric type (is BSON type string)'],
    ['$substr length not a number', { $substr: ['$s', 0, 'x'] }, 16035, '$substrBytes:  length must be a numeric type (is BSON type string)'],
    ['$substr negative start', { $substr: ['$s', -1, 1] }, 50752, '$substrBytes:  starting index must be non-negative (got: -1)'],
    ['$substr inside a character', { $substr: ['é', 1, 1] }, 28656, '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.'],
    ['$substr ending inside a character', { $substr: ['é', 0, 1] }, 28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.'],
    ['$size of a number', { $size: '$i' }, 17124, 'The argument to $size must be an array, but was of type: int'],
    ['$size of a missing field', { $size: '$nope' }, 17124, 'The argument to $size must be an array, but was of type: missing'],
    ['$arrayElemAt of a number', { $arrayElemAt: ['$i', 0] }, 28689, "$arrayElemAt's first argument must be an array, but is int"],
    ['$arrayElemAt with a string index', { $arrayElemAt: ['$arr', 'x'] }, 28690, "$arrayElemAt's second argument must be a numeric value, but is string"],
    ['$arrayElemAt with a fractional index', { $arrayElemAt: ['$arr', 1.5] }, 28691, "$arrayElemAt's second argument must be representable as a 32-bit integer: 1.5"],
    ['$in of a non-array', { $in: [1, '$i'] }, 40081, '$in requires an array as a second argument, found: int'],
  ];
  for (const [name, expr, code, message] of runErrors) {
    it(`run: ${name}`, () => expectCommandError(() => evaluate(expr), code, message));
  }
});
