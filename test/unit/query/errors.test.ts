import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, Decimal128, Long, type Document } from '../../../src/bson/library.js';
import { compileError } from './helpers.js';

type Row = [Document, number, string];

const run = (rows: Row[]) =>
  test.each(rows)('%j → %i %s', (filter, code, message) => {
    expect(compileError(filter)).toEqual({ code, message });
  });

const TOP_HINT = ". If you have a field name that starts with a '$' symbol, consider using $getField or $setField.";

describe('top-level operators', () => {
  run([
    [{ $foo: 1 }, 2, `unknown top level operator: $foo${TOP_HINT}`],
    [{ $size: 2 }, 2, `unknown top level operator: $size${TOP_HINT}`],
    [{ $not: { a: 1 } }, 2, 'unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.'],
    [{ $and: {} }, 2, '$and argument must be an array'],
    [{ $or: 1 }, 2, '$or argument must be an array'],
    [{ $nor: [] }, 2, '$nor argument must be a non-empty array'],
    [{ $and: [] }, 2, '$and argument must be a non-empty array'],
    [{ $or: [1] }, 2, "$or argument's entries must be objects"],
    [{ $and: [{ a: 1 }, 'x'] }, 2, "$and argument's entries must be objects"],
    [{ $and: [{ $bad: 1 }] }, 2, `unknown top level operator: $bad${TOP_HINT}`],
    [{ $where: 'true' }, 6108304, 'no globalScriptEngine in $where parsing'],
    [{ $or: [{ $where: 'true' }] }, 6108304, 'no globalScriptEngine in $where parsing'],
    [{ $expr: { $eq: [1, 1] } }, 238, '$expr is not supported by Mayfly yet'],
    [{ $jsonSchema: 1 }, 14, '$jsonSchema must be an object'],
    [{ $text: 'x' }, 2, '$text expects an object'],
    [{ $text: {} }, 4, 'Missing expected field "$search"'],
    [{ $text: { $search: 1 } }, 14, '"$search" had the wrong type. Expected string, found int'],
    [{ $text: { $search: 'x', $caseSensitive: 1 } }, 14, '"$caseSensitive" had the wrong type. Expected bool, found int'],
    [{ $text: { $search: 'x', $language: 'klingon' } }, 2, 'unsupported language: "klingon" for text index version 3'],
    [{ $text: { $search: 'x', $other: 1 } }, 2, 'extra fields in $text'],
    [{ $and: [{ $text: { $search: 'x' } }, { $text: { $search: 'y' } }] }, 2, 'Too many text expressions'],
    [{ $nor: [{ $text: { $search: 'x' } }] }, 2, 'text expression not allowed in nor'],
    [{ $alwaysTrue: 2 }, 9, '$alwaysTrue must be an integer value of 1'],
    [{ $alwaysFalse: 'x' }, 9, 'Expected a number in: $alwaysFalse: "x"'],
    [{ $sampleRate: 'x' }, 2, 'argument to $sampleRate must be a numeric type'],
    [{ $sampleRate: 2 }, 2, 'numeric argument to $sampleRate must be in [0, 1]'],
    [{ $sampleRate: NaN }, 2, 'numeric argument to $sampleRate must be in [0, 1]'],
  ]);

  test('$where in an aggregation $match context', () => {
    expect(compileError({ $where: 'true' }, { whereAllowed: false })).toEqual({
      code: 2,
      message: '$where is not allowed in this context',
    });
  });
});

describe('field operators', () => {
  run([
    [{ a: { $foo: 1 } }, 2, 'unknown operator: $foo'],
    [{ a: { $gt: 1, b: 2 } }, 2, 'unknown operator: b'],
    [{ a: { $where: 'x' } }, 2, '$where cannot be applied to a field'],
    [{ a: undefined }, 2, 'cannot compare to undefined'],
    [{ a: { $eq: undefined } }, 2, 'cannot compare to undefined'],
    [{ a: { $lt: undefined } }, 2, 'cannot compare to undefined'],
    [{ a: { $ne: undefined } }, 2, 'cannot compare to undefined'],
    [{ a: { $gt: /x/ } }, 2, "Can't have RegEx as arg to non-equality predicate over field 'a'."],
    [{ 'a.b': { $lte: new BSONRegExp('x', '') } }, 2, "Can't have RegEx as arg to non-equality predicate over field 'a.b'."],
    [{ a: { $ne: /x/ } }, 2, "Can't have regex as arg to $ne."],
    [{ a: { $in: 1 } }, 2, '$in needs an array'],
    [{ a: { $nin: { x: 1 } } }, 2, '$nin needs an array'],
    [{ a: { $in: [{ $gt: 1 }] } }, 2, 'cannot nest $ under $in'],
    [{ a: { $nin: [1, { $exists: true }] } }, 2, 'cannot nest $ under $in'],
    [{ a: { $in: [undefined] } }, 2, 'InMatchExpression equality cannot be undefined'],
    [{ a: { $not: 1 } }, 2, '$not argument must be a regex or an object'],
    [{ a: { $not: {} } }, 2, '$not argument must be a non-empty object'],
    [{ a: { $not: { b: 1 } } }, 2, 'unknown operator: b'],
    [{ a: { $elemMatch: 1 } }, 2, '$elemMatch needs an Object'],
    [{ a: { $elemMatch: { $where: 'x' } } }, 2, '$where can only be applied to the top-level document'],
    [{ a: { $elemMatch: { $expr: {} } } }, 2, '$expr can only be applied to the top-level document'],
    [{ a: { $elemMatch: { $text: {} } } }, 2, '$text can only be applied to the top-level document'],
    [{ a: { $elemMatch: { $foo: 1 } } }, 2, 'unknown operator: $foo'],
    [{ a: { $all: 1 } }, 2, '$all needs an array'],
    [{ a: { $all: [{ $elemMatch: { b: 1 } }, 5] } }, 2, '$all/$elemMatch has to be consistent'],
    [{ a: { $all: [{ $elemMatch: { b: 1 } }, { b: 1 }] } }, 2, '$all/$elemMatch has to be consistent'],
    [{ a: { $all: [1, { $gt: 1 }] } }, 2, 'no $ expressions in $all'],
    [{ a: { $exists: true, $foo: 1 } }, 2, 'unknown operator: $foo'],
  ]);
});

describe('$size', () => {
  run([
    [{ a: { $size: 'x' } }, 2, 'Failed to parse $size. Expected a number in: $size: "x"'],
    [{ a: { $size: { $gt: 1 } } }, 2, 'Failed to parse $size. Expected a number in: $size: { $gt: 1 }'],
    [{ a: { $size: 2.1 } }, 2, 'Failed to parse $size. Expected an integer: $size: 2.1'],
    [{ a: { $size: NaN } }, 2, 'Failed to parse $size. Expected an integer, but found NaN in: $size: nan.0'],
    [{ a: { $size: Infinity } }, 2, 'Failed to parse $size. Cannot represent as a 64-bit integer: $size: inf.0'],
    [{ a: { $size: -1 } }, 2, 'Failed to parse $size. Expected a non-negative number in: $size: -1'],
    [{ a: { $size: Long.fromString('3000000000') } }, 2, 'Failed to parse $size. Cannot represent as a 32-bit integer: $size: 3000000000'],
    [{ a: { $size: Decimal128.fromString('1.5') } }, 2, 'Failed to parse $size. Cannot represent as a 64-bit integer: $size: 1.5'],
  ]);
});

describe('$type', () => {
  run([
    [{ a: { $type: 'foo' } }, 2, 'Unknown type name alias: foo'],
    [{ a: { $type: ['int', 'foo'] } }, 2, 'Unknown type name alias: foo'],
    [{ a: { $type: 'missing' } }, 2, "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}."],
    [{ a: { $type: 100 } }, 2, 'Invalid numerical type code: 100'],
    [{ a: { $type: 2.5 } }, 2, 'Invalid numerical type code: 2.5'],
    [{ a: { $type: 0 } }, 2, 'Invalid numerical type code: 0. Instead use {$exists:false}.'],
    [{ a: { $type: true } }, 14, 'type must be represented as a number or a string'],
    [{ a: { $type: null } }, 14, 'type must be represented as a number or a string'],
    [{ a: { $type: [] } }, 9, 'a must match at least one type'],
  ]);
});

describe('$mod', () => {
  run([
    [{ a: { $mod: 3 } }, 2, 'malformed mod, needs to be an array'],
    [{ a: { $mod: [] } }, 2, 'malformed mod, not enough elements'],
    [{ a: { $mod: ['x', 1] } }, 2, 'malformed mod, divisor not a number'],
    [{ a: { $mod: [3] } }, 2, 'malformed mod, not enough elements'],
    [{ a: { $mod: [3, 'x'] } }, 2, 'malformed mod, remainder not a number'],
    [{ a: { $mod: [3, 1, 2] } }, 2, 'malformed mod, too many elements'],
    [{ a: { $mod: [0, 1] } }, 2, 'divisor cannot be 0'],
    [{ a: { $mod: [0.5, 1] } }, 2, 'divisor cannot be 0'],
    [{ a: { $mod: [NaN, 1] } }, 2, 'malformed mod, divisor value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type'],
    [{ a: { $mod: [1, Infinity] } }, 2, 'malformed mod, remainder value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type'],
    [{ a: { $mod: [1e300, 1] } }, 2, 'malformed mod, divisor value is invalid :: caused by :: Out of bounds coercing to integral value'],
  ]);
});

describe('$regex', () => {
  run([
    [{ a: { $regex: 5 } }, 2, '$regex has to be a string'],
    [{ a: { $regex: 'x', $options: 5 } }, 2, '$options has to be a string'],
    [{ a: { $options: 'i' } }, 2, '$options needs a $regex'],
    [{ a: { $regex: /x/i, $options: 'm' } }, 51075, 'options set in both $regex and $options'],
    [{ a: { $options: 'm', $regex: /x/i } }, 51074, 'options set in both $regex and $options'],
    [{ a: { $regex: 'x', $options: 'g' } }, 51108, ' invalid flag in regex options: g'],
    [{ a: new BSONRegExp('x', 'l') }, 51108, ' invalid flag in regex options: l'],
    [{ a: { $regex: 'a\0b' } }, 2, 'Regular expression cannot contain an embedded null byte'],
  ]);
  test('an invalid pattern is 51091', () => {
    const err = compileError({ a: { $regex: '(' } });
    expect(err?.code).toBe(51091);
    expect(err?.message.startsWith('Regular expression is invalid: ')).toBe(true);
  });
});

describe('bitwise operators', () => {
  run([
    [{ a: { $bitsAllSet: 'x' } }, 2, 'a takes an Array, a number, or a BinData but received: $bitsAllSet: "x"'],
    [{ a: { $bitsAnySet: -1 } }, 9, 'Expected a non-negative number in: $bitsAnySet: -1'],
    [{ a: { $bitsAnySet: 1.5 } }, 9, 'Expected an integer: $bitsAnySet: 1.5'],
    [{ a: { $bitsAllClear: [1, -1] } }, 2, 'Failed to parse bit position. Expected a non-negative number in: 1: -1'],
    [{ a: { $bitsAllClear: ['x'] } }, 2, 'Failed to parse bit position. Expected a number in: 0: "x"'],
  ]);
  test('BinData masks are accepted', () => {
    expect(compileError({ a: { $bitsAllSet: new Binary(new Uint8Array([1])) } })).toBeNull();
  });
});

describe('geospatial operators', () => {
  run([
    [{ a: { $geoWithin: { $center: [[0, 0], -1] } } }, 2, 'radius must be a non-negative number'],
    [{ a: { $geoIntersects: { $geometry: {} } } }, 2, 'unknown GeoJSON type: {}'],
    [{ a: { $near: [0, 0], $maxDistance: -1 } }, 16896, '$maxDistance must be non-negative'],
    [{ a: { $nearSphere: { $geometry: {} }, $maxDistance: 1 } }, 2, 'geo near accepts just one argument when querying for a GeoJSON point. Extra field found: $maxDistance: 1'],
  ]);
});
