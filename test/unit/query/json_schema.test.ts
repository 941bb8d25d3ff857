import { describe, expect, test } from 'vitest';
import { Binary, BSONRegExp, BSONSymbol, Code, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp, type Document } from '../../../src/bson/library.js';
import { compileError, matches } from './helpers.js';

type MatchRow = [Document, Document, boolean];
type ErrorRow = [unknown, number, string];

const runMatches = (rows: MatchRow[]) =>
  test.each(rows)('%j against %j → %s', (doc, schema, expected) => {
    expect(matches(doc, { $jsonSchema: schema })).toBe(expected);
  });

const runErrors = (rows: ErrorRow[]) =>
  test.each(rows)('%j → %i %s', (schema, code, message) => {
    expect(compileError({ $jsonSchema: schema })).toEqual({ code, message });
  });

/** `{properties: {a: schema}}`: a schema applied to field a. */
const onA = (schema: Document): Document => ({ properties: { a: schema } });

describe('empty schema and annotations', () => {
  runMatches([
    [{}, {}, true],
    [{ a: 1 }, {}, true],
    [{ a: 1 }, { title: 't', description: 'd' }, true],
    [{ a: 1 }, onA({ title: 't', description: 'd' }), true],
  ]);
});

describe('bsonType', () => {
  runMatches([
    [{ a: 1 }, onA({ bsonType: 'int' }), true],
    [{ a: new Double(1) }, onA({ bsonType: 'int' }), false],
    [{ a: new Double(1) }, onA({ bsonType: 'double' }), true],
    [{ a: 1.5 }, onA({ bsonType: 'double' }), true],
    [{ a: Long.fromNumber(1) }, onA({ bsonType: 'long' }), true],
    [{ a: Long.fromNumber(1) }, onA({ bsonType: 'int' }), false],
    [{ a: Decimal128.fromString('1') }, onA({ bsonType: 'decimal' }), true],
    [{ a: 1 }, onA({ bsonType: 'number' }), true],
    [{ a: 1.5 }, onA({ bsonType: 'number' }), true],
    [{ a: Long.fromNumber(1) }, onA({ bsonType: 'number' }), true],
    [{ a: Decimal128.fromString('1') }, onA({ bsonType: 'number' }), true],
    [{ a: '1' }, onA({ bsonType: 'number' }), false],
    [{ a: 'x' }, onA({ bsonType: 'string' }), true],
    [{ a: {} }, onA({ bsonType: 'object' }), true],
    [{ a: [] }, onA({ bsonType: 'object' }), false],
    [{ a: [] }, onA({ bsonType: 'array' }), true],
    [{ a: [1] }, onA({ bsonType: 'int' }), false],
    [{ a: new Binary(new Uint8Array([1])) }, onA({ bsonType: 'binData' }), true],
    [{ a: undefined }, onA({ bsonType: 'undefined' }), true],
    [{ a: new ObjectId('0123456789abcdef01234567') }, onA({ bsonType: 'objectId' }), true],
    [{ a: true }, onA({ bsonType: 'bool' }), true],
    [{ a: new Date(0) }, onA({ bsonType: 'date' }), true],
    [{ a: null }, onA({ bsonType: 'null' }), true],
    [{ a: null }, onA({ bsonType: 'int' }), false],
    [{ a: new BSONRegExp('x', '') }, onA({ bsonType: 'regex' }), true],
    [{ a: new Code('f()') }, onA({ bsonType: 'javascript' }), true],
    [{ a: new Code('f()', { x: 1 }) }, onA({ bsonType: 'javascriptWithScope' }), true],
    [{ a: new BSONSymbol('s') }, onA({ bsonType: 'symbol' }), true],
    [{ a: new Timestamp({ t: 1, i: 1 }) }, onA({ bsonType: 'timestamp' }), true],
    [{ a: new MinKey() }, onA({ bsonType: 'minKey' }), true],
    [{ a: new MaxKey() }, onA({ bsonType: 'maxKey' }), true],
    [{ a: 'x' }, onA({ bsonType: ['int', 'string'] }), true],
    [{ a: true }, onA({ bsonType: ['int', 'string'] }), false],
    // A missing property is not checked (properties only constrain present fields).
    [{}, onA({ bsonType: 'int' }), true],
    [{ b: 'x' }, onA({ bsonType: 'int' }), true],
    // Top level: only 'object' can match, since documents are objects.
    [{ a: 1 }, { bsonType: 'object' }, true],
    [{ a: 1 }, { bsonType: ['object', 'int'] }, true],
    [{ a: 1 }, { bsonType: 'int' }, false],
    [{ a: 1 }, { bsonType: 'array' }, false],
  ]);
});

describe('type (JSON types)', () => {
  runMatches([
    [{ a: 1 }, onA({ type: 'number' }), true],
    [{ a: Long.fromNumber(5) }, onA({ type: 'number' }), true],
    [{ a: Decimal128.fromString('5.5') }, onA({ type: 'number' }), true],
    [{ a: 'x' }, onA({ type: 'number' }), false],
    [{ a: 'x' }, onA({ type: 'string' }), true],
    [{ a: new BSONSymbol('x') }, onA({ type: 'string' }), false],
    [{ a: {} }, onA({ type: 'object' }), true],
    [{ a: [] }, onA({ type: 'array' }), true],
    [{ a: false }, onA({ type: 'boolean' }), true],
    [{ a: null }, onA({ type: 'null' }), true],
    [{ a: undefined }, onA({ type: 'null' }), false],
    [{ a: null }, onA({ type: ['string', 'null'] }), true],
    [{ a: 1 }, onA({ type: ['string', 'null'] }), false],
    [{ a: 1 }, { type: 'object' }, true],
    [{ a: 1 }, { type: 'string' }, false],
  ]);
});

describe('required and properties', () => {
  runMatches([
    [{ a: 1 }, { required: ['a'] }, true],
    [{ a: null }, { required: ['a'] }, true],
    [{ a: undefined }, { required: ['a'] }, true],
    [{ b: 1 }, { required: ['a'] }, false],
    [{ a: 1, b: 1 }, { required: ['a', 'b'] }, true],
    [{ a: 1 }, { required: ['a', 'b'] }, false],
    [{ a: 1 }, { required: ['a'], properties: { a: { bsonType: 'int' } } }, true],
    [{ a: 'x' }, { required: ['a'], properties: { a: { bsonType: 'int' } } }, false],
    [{}, { required: ['a'], properties: { a: { minimum: 1 } } }, false],
    [{ a: { b: 1 } }, onA({ properties: { b: { bsonType: 'int' } } }), true],
    [{ a: { b: 'x' } }, onA({ properties: { b: { bsonType: 'int' } } }), false],
    [{ a: { c: 1 } }, onA({ required: ['b'] }), false],
    [{ a: { b: 1 } }, onA({ required: ['b'] }), true],
    // Nested object keywords do not constrain non-objects.
    [{ a: 5 }, onA({ required: ['b'] }), true],
    [{ a: [{ c: 1 }] }, onA({ required: ['b'] }), true],
    [{ a: 5 }, onA({ properties: { b: { bsonType: 'int' } } }), true],
    [{ a: 5 }, onA({ bsonType: 'object', required: ['b'] }), false],
    // Dotted property names reach into embedded documents.
    [{ a: { b: 1 } }, { required: ['a.b'] }, true],
    [{ a: { c: 1 } }, { required: ['a.b'] }, false],
    [{ a: { b: 'x' } }, { properties: { 'a.b': { bsonType: 'int' } } }, false],
  ]);
});

describe('minProperties and maxProperties', () => {
  runMatches([
    [{ a: 1, b: 2 }, { minProperties: 2 }, true],
    [{ a: 1 }, { minProperties: 2 }, false],
    [{ a: 1, b: 2 }, { maxProperties: 1 }, false],
    [{ _id: 1, a: 1 }, { maxProperties: 1 }, false],
    [{ a: 1 }, { maxProperties: 1 }, true],
    [{ a: { x: 1, y: 2 } }, onA({ maxProperties: 1 }), false],
    [{ a: { x: 1 } }, onA({ maxProperties: 1 }), true],
    [{ a: [1, 2, 3] }, onA({ maxProperties: 1 }), true],
    [{ a: 'abc' }, onA({ minProperties: 1 }), true],
  ]);
});

describe('additionalProperties and patternProperties', () => {
  runMatches([
    [{ a: 1 }, { properties: { a: {} }, additionalProperties: false }, true],
    // _id counts as an additional property at the top level.
    [{ _id: 1, a: 1 }, { properties: { a: {} }, additionalProperties: false }, false],
    [{ _id: 1, a: 1 }, { properties: { _id: {}, a: {} }, additionalProperties: false }, true],
    [{ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: false }, false],
    [{ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: true }, true],
    [{ a: 1, b: 2 }, { properties: { a: {} }, additionalProperties: { bsonType: 'int' } }, true],
    [{ a: 1, b: 'x' }, { properties: { a: {} }, additionalProperties: { bsonType: 'int' } }, false],
    [{ a: 'x', b: 1 }, { properties: { a: {} }, additionalProperties: { bsonType: 'int' } }, true],
    [{ x1: 1, x2: 2 }, { patternProperties: { '^x': { bsonType: 'int' } } }, true],
    [{ x1: 1, x2: 'y' }, { patternProperties: { '^x': { bsonType: 'int' } } }, false],
    // Patterns search anywhere in the name.
    [{ ax: 'y' }, { patternProperties: { x: { bsonType: 'int' } } }, false],
    [{ y: 'z' }, { patternProperties: { '^x': { bsonType: 'int' } } }, true],
    // A name matched by a pattern is not additional; a named property is not additional.
    [{ x1: 1, b: 2 }, { patternProperties: { '^x': {} }, additionalProperties: false }, false],
    [{ x1: 1 }, { patternProperties: { '^x': {} }, additionalProperties: false }, true],
    [{ x1: 1, b: 'no' }, { properties: { b: {} }, patternProperties: { '^x': {} }, additionalProperties: false }, true],
    // Both the named property's schema and a matching pattern apply.
    [{ x: 'a' }, { properties: { x: { bsonType: 'string' } }, patternProperties: { '^x$': { bsonType: 'int' } } }, false],
    [{ a: { b: 1 } }, onA({ additionalProperties: false }), false],
    [{ a: {} }, onA({ additionalProperties: false }), true],
    [{ a: 1 }, onA({ additionalProperties: false }), true],
  ]);
});

describe('dependencies', () => {
  runMatches([
    [{ a: 1, b: 1 }, { dependencies: { a: ['b'] } }, true],
    [{ a: 1 }, { dependencies: { a: ['b'] } }, false],
    [{ b: 1 }, { dependencies: { a: ['b', 'c'] } }, true],
    [{ a: 1, b: 1 }, { dependencies: { a: ['b', 'c'] } }, false],
    [{ a: 1, b: 1 }, { dependencies: { a: { required: ['b'] } } }, true],
    [{ a: 1 }, { dependencies: { a: { required: ['b'] } } }, false],
    [{ a: 1, b: 'x' }, { dependencies: { a: { properties: { b: { bsonType: 'int' } } } } }, false],
    [{ b: 'x' }, { dependencies: { a: { properties: { b: { bsonType: 'int' } } } } }, true],
    [{ a: 1 }, { dependencies: { title: 'ignored', description: 'ignored' } }, true],
    [{ a: { x: 1 } }, onA({ dependencies: { x: ['y'] } }), false],
    [{ a: { x: 1, y: 1 } }, onA({ dependencies: { x: ['y'] } }), true],
    [{ a: 7 }, onA({ dependencies: { x: ['y'] } }), true],
  ]);
});

describe('numeric keywords', () => {
  runMatches([
    [{ a: 5 }, onA({ minimum: 5 }), true],
    [{ a: 4 }, onA({ minimum: 5 }), false],
    [{ a: 5 }, onA({ minimum: 5, exclusiveMinimum: true }), false],
    [{ a: 5 }, onA({ minimum: 5, exclusiveMinimum: false }), true],
    [{ a: 6 }, onA({ minimum: 5, exclusiveMinimum: true }), true],
    [{ a: 5 }, onA({ maximum: 5 }), true],
    [{ a: 6 }, onA({ maximum: 5 }), false],
    [{ a: 5 }, onA({ maximum: 5, exclusiveMaximum: true }), false],
    [{ a: 4.5 }, onA({ maximum: 5, exclusiveMaximum: true }), true],
    // Across numeric types.
    [{ a: Long.fromNumber(5) }, onA({ minimum: new Double(5) }), true],
    [{ a: Decimal128.fromString('4.99') }, onA({ minimum: 5 }), false],
    [{ a: 5 }, onA({ minimum: Decimal128.fromString('5.00') }), true],
    [{ a: Long.fromString('9007199254740993') }, onA({ maximum: 9007199254740992 }), false],
    // Non-numbers and missing fields are not constrained.
    [{ a: 'x' }, onA({ minimum: 5 }), true],
    [{ a: [1] }, onA({ minimum: 5 }), true],
    [{}, onA({ minimum: 5 }), true],
    [{ a: 'x' }, onA({ bsonType: 'number', minimum: 5 }), false],
    [{ a: 'x' }, onA({ bsonType: 'string', minimum: 5 }), true],
    // NaN is below every number, equal only to NaN.
    [{ a: NaN }, onA({ minimum: 0 }), false],
    [{ a: NaN }, onA({ maximum: 0 }), false],
    [{ a: NaN }, onA({ minimum: NaN }), true],
    [{ a: 1 }, onA({ minimum: NaN }), false],
    // Keywords for scalars are no-ops at the top level (documents are objects).
    [{ a: 1 }, { minimum: 5, maximum: 0 }, true],
  ]);
});

describe('multipleOf', () => {
  runMatches([
    [{ a: 10 }, onA({ multipleOf: 5 }), true],
    [{ a: 11 }, onA({ multipleOf: 5 }), false],
    [{ a: 0 }, onA({ multipleOf: 5 }), true],
    [{ a: -10 }, onA({ multipleOf: 5 }), true],
    [{ a: 7.5 }, onA({ multipleOf: 2.5 }), true],
    // Computed in Decimal128 from 15-digit conversions of doubles: 0.3 is a multiple of 0.1.
    [{ a: 0.3 }, onA({ multipleOf: 0.1 }), true],
    [{ a: 0.35 }, onA({ multipleOf: 0.1 }), false],
    [{ a: Long.fromString('9007199254740993') }, onA({ multipleOf: 3 }), true],
    [{ a: Decimal128.fromString('1.20') }, onA({ multipleOf: Decimal128.fromString('0.4') }), true],
    [{ a: Infinity }, onA({ multipleOf: 1 }), false],
    [{ a: NaN }, onA({ multipleOf: 1 }), false],
    [{ a: 'x' }, onA({ multipleOf: 3 }), true],
    [{ a: 1 }, { multipleOf: 3 }, true],
    // At the top level mongod does not build the fmod node, so NaN/Infinity are accepted there.
    [{ a: 1 }, { multipleOf: NaN }, true],
    [{ a: 1 }, { multipleOf: Infinity }, true],
  ]);
});

describe('string keywords', () => {
  runMatches([
    [{ a: 'abc' }, onA({ minLength: 3 }), true],
    [{ a: 'ab' }, onA({ minLength: 3 }), false],
    [{ a: 'abcd' }, onA({ maxLength: 3 }), false],
    [{ a: '' }, onA({ maxLength: 0 }), true],
    // Lengths count code points: '😀' is one, 'é' is one.
    [{ a: '😀😀' }, onA({ maxLength: 2 }), true],
    [{ a: 'été' }, onA({ minLength: 3, maxLength: 3 }), true],
    [{ a: 12345 }, onA({ maxLength: 2 }), true],
    [{ a: ['abcdef'] }, onA({ maxLength: 2 }), true],
    [{ a: new BSONSymbol('abcdef') }, onA({ maxLength: 2 }), true],
    [{ a: 'abc' }, onA({ minLength: Long.fromNumber(3), maxLength: new Double(3) }), true],
    [{ a: 'abc' }, onA({ pattern: '^a' }), true],
    [{ a: 'xabc' }, onA({ pattern: '^a' }), false],
    [{ a: 'xabc' }, onA({ pattern: 'b' }), true],
    [{ a: 'ABC' }, onA({ pattern: 'abc' }), false],
    [{ a: 5 }, onA({ pattern: '^a' }), true],
    [{ a: 'abc' }, { pattern: '^z', minLength: 100 }, true],
  ]);
});

describe('array keywords', () => {
  runMatches([
    [{ a: [1, 2] }, onA({ minItems: 2 }), true],
    [{ a: [1] }, onA({ minItems: 2 }), false],
    [{ a: [1, 2, 3] }, onA({ maxItems: 2 }), false],
    [{ a: 'xyz' }, onA({ maxItems: 2 }), true],
    [{ a: [1, 2, 3] }, onA({ uniqueItems: true }), true],
    [{ a: [1, 2, 1] }, onA({ uniqueItems: true }), false],
    [{ a: [1, new Double(1)] }, onA({ uniqueItems: true }), false],
    [{ a: [1, Long.fromNumber(1)] }, onA({ uniqueItems: true }), false],
    [{ a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] }, onA({ uniqueItems: true }), false],
    [{ a: [[1, 2], [2, 1]] }, onA({ uniqueItems: true }), true],
    [{ a: [1, '1'] }, onA({ uniqueItems: true }), true],
    [{ a: [1, 1] }, onA({ uniqueItems: false }), true],
    [{ a: [1, 2, 3] }, onA({ items: { bsonType: 'int' } }), true],
    [{ a: [1, 'x'] }, onA({ items: { bsonType: 'int' } }), false],
    [{ a: [] }, onA({ items: { bsonType: 'int' } }), true],
    [{ a: 'x' }, onA({ items: { bsonType: 'int' } }), true],
    [{ a: [[1], [2, 3]] }, onA({ items: { maxItems: 1 } }), false],
    [{ a: [1, 'x'] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }] }), true],
    [{ a: ['x', 1] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }] }), false],
    [{ a: [1] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }] }), true],
    [{ a: [1, 'x', true] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }] }), true],
    [{ a: [1, 'x', true] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }], additionalItems: false }), false],
    [{ a: [1, 'x'] }, onA({ items: [{ bsonType: 'int' }, { bsonType: 'string' }], additionalItems: false }), true],
    [{ a: [1, 'x', 2, 3] }, onA({ items: [{}, {}], additionalItems: { bsonType: 'int' } }), true],
    [{ a: [1, 'x', 2, 'y'] }, onA({ items: [{}, {}], additionalItems: { bsonType: 'int' } }), false],
    // additionalItems does nothing unless items is an array.
    [{ a: [1, 2] }, onA({ additionalItems: false }), true],
    [{ a: [1, 2] }, onA({ items: {}, additionalItems: false }), true],
    [{ a: [{ b: 1 }, { b: 'x' }] }, onA({ items: { properties: { b: { bsonType: 'int' } } } }), false],
    [{ a: 1 }, { minItems: 3, uniqueItems: true, items: { bsonType: 'string' } }, true],
  ]);
});

describe('enum', () => {
  runMatches([
    [{ a: 1 }, onA({ enum: [1, 2] }), true],
    [{ a: new Double(2) }, onA({ enum: [1, 2] }), true],
    [{ a: 3 }, onA({ enum: [1, 2] }), false],
    [{ a: '1' }, onA({ enum: [1, 2] }), false],
    [{ a: null }, onA({ enum: [null] }), true],
    [{}, onA({ enum: [null] }), true],
    [{}, { required: ['a'], properties: { a: { enum: [null] } } }, false],
    // Arrays are compared whole, not element by element.
    [{ a: [1, 2] }, onA({ enum: [[1, 2]] }), true],
    [{ a: [1] }, onA({ enum: [1] }), false],
    [{ a: [2, 1] }, onA({ enum: [[1, 2]] }), false],
    // Field order of embedded documents is ignored.
    [{ a: { x: 1, y: 2 } }, onA({ enum: [{ y: 2, x: 1 }] }), true],
    [{ a: { x: 1 } }, onA({ enum: [{ x: 1, y: 2 }] }), false],
    // Top level: the whole document against object values; scalars never match.
    [{ b: 1, a: 2 }, { enum: [{ a: 2, b: 1 }] }, true],
    [{ a: 2 }, { enum: [{ a: 2, b: 1 }, 5] }, false],
    [{ a: 2 }, { enum: [5, 'x'] }, false],
  ]);
});

describe('logical keywords', () => {
  runMatches([
    [{ a: 5 }, onA({ allOf: [{ minimum: 1 }, { maximum: 10 }] }), true],
    [{ a: 15 }, onA({ allOf: [{ minimum: 1 }, { maximum: 10 }] }), false],
    [{ a: 'x' }, onA({ anyOf: [{ bsonType: 'int' }, { bsonType: 'string' }] }), true],
    [{ a: true }, onA({ anyOf: [{ bsonType: 'int' }, { bsonType: 'string' }] }), false],
    [{ a: 5 }, onA({ oneOf: [{ minimum: 1 }, { minimum: 3 }] }), false],
    [{ a: 2 }, onA({ oneOf: [{ minimum: 1 }, { minimum: 3 }] }), true],
    [{ a: 0 }, onA({ oneOf: [{ minimum: 1 }, { minimum: 3 }] }), false],
    [{ a: 'x' }, onA({ not: { bsonType: 'string' } }), false],
    [{ a: 1 }, onA({ not: { bsonType: 'string' } }), true],
    [{ a: 1 }, { not: { required: ['a'] } }, false],
    [{ b: 1 }, { not: { required: ['a'] } }, true],
    [{ a: 1 }, { anyOf: [{ required: ['a'] }, { required: ['b'] }] }, true],
    [{ c: 1 }, { anyOf: [{ required: ['a'] }, { required: ['b'] }] }, false],
    [{ a: 1, b: 1 }, { oneOf: [{ required: ['a'] }, { required: ['b'] }] }, false],
    [{ a: 1 }, { allOf: [{ required: ['a'] }, { properties: { a: { bsonType: 'int' } } }] }, true],
    // Top-level sub-schemas of logical keywords are still top level: scalar keywords do nothing.
    [{ a: 1 }, { not: { minimum: 5 } }, false],
  ]);
});

describe('combined with other predicates and nesting', () => {
  test('$jsonSchema next to field predicates', () => {
    const filter = { $jsonSchema: { required: ['a'] }, b: { $gt: 1 } };
    expect(matches({ a: 1, b: 2 }, filter)).toBe(true);
    expect(matches({ a: 1, b: 0 }, filter)).toBe(false);
    expect(matches({ b: 2 }, filter)).toBe(false);
  });

  test('$jsonSchema inside $and, $or and $nor', () => {
    expect(matches({ a: 1 }, { $or: [{ $jsonSchema: { required: ['b'] } }, { a: 1 }] })).toBe(true);
    expect(matches({ a: 1 }, { $and: [{ $jsonSchema: { required: ['b'] } }, { a: 1 }] })).toBe(false);
    expect(matches({ a: 1 }, { $nor: [{ $jsonSchema: { required: ['b'] } }] })).toBe(true);
  });

  test('$jsonSchema inside $elemMatch applies to each element (mongod has no level check)', () => {
    const filter = { arr: { $elemMatch: { $jsonSchema: { required: ['x'], properties: { x: { minimum: 2 } } } } } };
    expect(matches({ arr: [{ x: 1 }, { x: 3 }] }, filter)).toBe(true);
    expect(matches({ arr: [{ x: 1 }, { y: 3 }] }, filter)).toBe(false);
    expect(matches({ arr: [1, 2] }, filter)).toBe(false);
    expect(matches({ arr: { x: 3 } }, filter)).toBe(false);
  });

  test('a deeply nested schema', () => {
    const schema = {
      bsonType: 'object',
      required: ['name', 'tags'],
      properties: {
        name: { bsonType: 'string', minLength: 1 },
        tags: { bsonType: 'array', items: { bsonType: 'string' }, uniqueItems: true },
        address: { bsonType: 'object', required: ['city'], properties: { zip: { pattern: '^[0-9]{5}$' } } },
      },
    };
    expect(matches({ name: 'n', tags: ['a', 'b'] }, { $jsonSchema: schema })).toBe(true);
    expect(matches({ name: 'n', tags: ['a', 'a'] }, { $jsonSchema: schema })).toBe(false);
    expect(matches({ name: '', tags: [] }, { $jsonSchema: schema })).toBe(false);
    expect(matches({ name: 'n', tags: [], address: { city: 'c', zip: '12345' } }, { $jsonSchema: schema })).toBe(true);
    expect(matches({ name: 'n', tags: [], address: { city: 'c', zip: '1234' } }, { $jsonSchema: schema })).toBe(false);
    expect(matches({ name: 'n', tags: [], address: { zip: '12345' } }, { $jsonSchema: schema })).toBe(false);
    expect(matches({ name: 'n', tags: [], address: 'x' }, { $jsonSchema: schema })).toBe(false);
  });
});

describe('where $jsonSchema may appear', () => {
  test.each([
    [{ a: { $jsonSchema: {} } }, 2, 'unknown operator: $jsonSchema'],
    [{ a: { $not: { $jsonSchema: {} } } }, 2, 'unknown operator: $jsonSchema'],
    [{ a: { $elemMatch: { $gt: 1, $jsonSchema: {} } } }, 2, 'unknown operator: $jsonSchema'],
  ])('%j → %i %s', (filter, code, message) => {
    expect(compileError(filter)).toEqual({ code, message });
  });
});

const ALIAS_MISSING = "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}.";

describe('parse errors', () => {
  runErrors([
    [1, 14, '$jsonSchema must be an object'],
    [[], 14, '$jsonSchema must be an object'],
    [{ foo: 1 }, 9, 'Unknown $jsonSchema keyword: foo'],
    [{ properties: { a: { foo: 1 } } }, 9, 'Unknown $jsonSchema keyword: foo'],
    [{ $ref: '#' }, 9, "$jsonSchema keyword '$ref' is not currently supported"],
    [{ $schema: 'x' }, 9, "$jsonSchema keyword '$schema' is not currently supported"],
    [{ default: 1 }, 9, "$jsonSchema keyword 'default' is not currently supported"],
    [{ definitions: {} }, 9, "$jsonSchema keyword 'definitions' is not currently supported"],
    [{ format: 'date' }, 9, "$jsonSchema keyword 'format' is not currently supported"],
    [{ id: 'x' }, 9, "$jsonSchema keyword 'id' is not currently supported"],
    [{ description: 1 }, 14, "$jsonSchema keyword 'description' must be of type string"],
    [{ title: 1 }, 14, "$jsonSchema keyword 'title' must be of type string"],
    [{ title: 1, description: 1 }, 14, "$jsonSchema keyword 'description' must be of type string"],
    // type / bsonType
    [{ type: 'object', bsonType: 'object' }, 9, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'"],
    [{ type: 1 }, 14, "$jsonSchema keyword 'type' must be either a string or an array of strings"],
    [{ bsonType: 2 }, 14, "$jsonSchema keyword 'bsonType' must be either a string or an array of strings"],
    [{ type: [1] }, 14, "$jsonSchema keyword 'type' array elements must be strings"],
    [{ type: 'integer' }, 9, "$jsonSchema type 'integer' is not currently supported."],
    [{ type: ['string', 'integer'] }, 9, "$jsonSchema type 'integer' is not currently supported."],
    [{ bsonType: 'integer' }, 9, "$jsonSchema type 'integer' is not currently supported."],
    [{ type: ['string', 'string'] }, 9, "$jsonSchema keyword 'type' has duplicate value: string"],
    [{ type: 'int' }, 2, 'Unknown type name alias: int'],
    [{ type: 'double' }, 2, 'Unknown type name alias: double'],
    [{ bsonType: 'boolean' }, 2, 'Unknown type name alias: boolean'],
    [{ bsonType: 'missing' }, 2, ALIAS_MISSING],
    [{ type: 'missing' }, 2, ALIAS_MISSING],
    // Aliases are resolved in sorted order.
    [{ bsonType: ['zzz', 'aaa'] }, 2, 'Unknown type name alias: aaa'],
    [{ type: [] }, 9, "$jsonSchema keyword 'type' must name at least one type"],
    [{ bsonType: [] }, 9, "$jsonSchema keyword 'bsonType' must name at least one type"],
    // scalar keywords
    [{ pattern: 1 }, 14, "$jsonSchema keyword 'pattern' must be a string"],
    [{ maxLength: 'x' }, 9, 'Expected a number in: maxLength: "x"'],
    [{ minLength: -1 }, 9, 'Expected a non-negative number in: minLength: -1'],
    [{ minLength: 1.5 }, 9, 'Expected an integer: minLength: 1.5'],
    [{ multipleOf: 'x' }, 14, "$jsonSchema keyword 'multipleOf' must be a number"],
    [{ multipleOf: 0 }, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
    [{ multipleOf: -2 }, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
    [{ multipleOf: -0.0 }, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
    [onA({ multipleOf: NaN }), 2, 'divisor cannot be NaN'],
    [onA({ multipleOf: Infinity }), 2, 'divisor cannot be infinite'],
    [{ maximum: 'x' }, 14, "$jsonSchema keyword 'maximum' must be a number"],
    [{ minimum: null }, 14, "$jsonSchema keyword 'minimum' must be a number"],
    [{ maximum: 1, exclusiveMaximum: 1 }, 14, "$jsonSchema keyword 'exclusiveMaximum' must be a boolean"],
    [{ minimum: 1, exclusiveMinimum: 'x' }, 14, "$jsonSchema keyword 'exclusiveMinimum' must be a boolean"],
    [{ exclusiveMaximum: true }, 9, "$jsonSchema keyword 'maximum' must be a present if exclusiveMaximum is present"],
    [{ exclusiveMinimum: false }, 9, "$jsonSchema keyword 'minimum' must be a present if exclusiveMinimum is present"],
    // array keywords
    [{ minItems: -1 }, 9, 'Expected a non-negative number in: minItems: -1'],
    [{ maxItems: 'x' }, 9, 'Expected a number in: maxItems: "x"'],
    [{ uniqueItems: 1 }, 14, "$jsonSchema keyword 'uniqueItems' must be a boolean"],
    [{ items: 1 }, 14, "$jsonSchema keyword 'items' must be an array or an object, not int"],
    [{ items: 'x' }, 14, "$jsonSchema keyword 'items' must be an array or an object, not string"],
    [{ items: [{}, 1] }, 14, "$jsonSchema keyword 'items' requires that each element of the array is an object, but found a int"],
    [{ additionalItems: 1 }, 14, "$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a int"],
    [{ additionalItems: { foo: 1 } }, 9, 'Unknown $jsonSchema keyword: foo'],
    // object keywords
    [{ required: 'a' }, 14, "$jsonSchema keyword 'required' must be an array, but found an element of type string"],
    [{ required: [1] }, 14, "$jsonSchema keyword 'required' must be an array of strings, but found an element of type: int"],
    [{ required: ['a', 'a'] }, 9, "$jsonSchema keyword 'required' array cannot contain duplicate values"],
    [{ required: [] }, 9, "$jsonSchema keyword 'required' cannot be an empty array"],
    [{ properties: 1 }, 14, "$jsonSchema keyword 'properties' must be an object"],
    [{ properties: { a: 1 } }, 14, "Nested schema for $jsonSchema property 'a' must be an object"],
    [{ patternProperties: [] }, 14, "$jsonSchema keyword 'patternProperties' must be an object"],
    [{ patternProperties: { '^a': 1 } }, 14, "$jsonSchema keyword 'patternProperties' has property '^a' which is not an object"],
    [{ additionalProperties: 1 }, 14, "$jsonSchema keyword 'additionalProperties' must be an object or a boolean"],
    [{ minProperties: -1 }, 9, 'Expected a non-negative number in: minProperties: -1'],
    [{ maxProperties: 'x' }, 9, 'Expected a number in: maxProperties: "x"'],
    [{ dependencies: 1 }, 14, "$jsonSchema keyword 'dependencies' must be an object"],
    [{ dependencies: { a: 1 } }, 14, "property 'a' in $jsonSchema keyword 'dependencies' must be either an object or an array"],
    [{ dependencies: { title: 1 } }, 14, "property 'title' in $jsonSchema keyword 'dependencies' must be either an object or an array"],
    [{ dependencies: { a: [] } }, 9, "property 'a' in $jsonSchema keyword 'dependencies' cannot be an empty array"],
    [{ dependencies: { a: [1] } }, 14, "array 'a' in $jsonSchema keyword 'dependencies' can only contain strings, but found element of type: int"],
    [{ dependencies: { a: ['b', 'b'] } }, 9, "array 'a' in $jsonSchema keyword 'dependencies' contains duplicate element: b"],
    // logical keywords
    [{ allOf: {} }, 14, "$jsonSchema keyword 'allOf' must be an array"],
    [{ anyOf: [] }, 2, "$jsonSchema keyword 'anyOf' must be a non-empty array"],
    [{ oneOf: [1] }, 14, "$jsonSchema keyword 'oneOf' must be an array of objects, but found an element of type int"],
    [{ not: [] }, 14, "$jsonSchema keyword 'not' must be an object, but found an element of type array"],
    [{ enum: 1 }, 14, "$jsonSchema keyword 'enum' must be an array, but found an element of type int"],
    [{ enum: [] }, 9, "$jsonSchema keyword 'enum' cannot be an empty array"],
    [{ enum: [1, new Double(1)] }, 9, "$jsonSchema keyword 'enum' array cannot contain duplicate values."],
    [{ enum: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }, 9, "$jsonSchema keyword 'enum' array cannot contain duplicate values."],
    // encryption
    [{ encrypt: {} }, 238, "$jsonSchema keyword 'encrypt' is not supported by Mayfly"],
    [{ encryptMetadata: {} }, 238, "$jsonSchema keyword 'encryptMetadata' is not supported by Mayfly"],
    [{ encrypt: {}, encryptMetadata: {} }, 9, "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'"],
    [
      { encrypt: {}, bsonType: 'binData' },
      9,
      "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'bsonType', 'encrypt' implies type 'bsonType::BinData'",
    ],
    [
      { encrypt: {}, type: 'object' },
      9,
      "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'type', 'encrypt' implies type 'bsonType::BinData'",
    ],
  ]);
});

describe('parse error order follows mongod', () => {
  runErrors([
    // Keywords are checked for being known before anything else.
    [{ minimum: 'x', foo: 1 }, 9, 'Unknown $jsonSchema keyword: foo'],
    // Metadata, then type, then scalar, array, object and logical keywords.
    [{ title: 1, type: 'x' }, 14, "$jsonSchema keyword 'title' must be of type string"],
    [{ type: 'x', pattern: 1 }, 2, 'Unknown type name alias: x'],
    [{ enum: 1, required: 1, items: 1, pattern: 1 }, 14, "$jsonSchema keyword 'pattern' must be a string"],
    [{ enum: 1, required: 1, items: 1 }, 14, "$jsonSchema keyword 'items' must be an array or an object, not int"],
    [{ enum: 1, required: 1 }, 14, "$jsonSchema keyword 'required' must be an array, but found an element of type int"],
    [{ required: [], properties: 1 }, 9, "$jsonSchema keyword 'required' cannot be an empty array"],
    [{ maximum: 'x', minimum: 'y' }, 14, "$jsonSchema keyword 'maximum' must be a number"],
    [{ not: 1, anyOf: 1 }, 14, "$jsonSchema keyword 'anyOf' must be an array"],
    // Errors inside nested schemas surface as they are reached.
    [{ properties: { a: { properties: { b: { bsonType: 'nope' } } } } }, 2, 'Unknown type name alias: nope'],
    [{ items: { enum: [] } }, 9, "$jsonSchema keyword 'enum' cannot be an empty array"],
  ]);
});
