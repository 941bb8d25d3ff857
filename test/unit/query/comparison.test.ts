import { describe, expect, test } from 'vitest';
import { BSONRegExp, BSONSymbol, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, type Document } from '../../../src/bson/library.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];

const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('implicit equality', () => {
  run([
    [{ a: 1 }, { a: 1 }, true],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: 1 }, { a: '1' }, false],
    [{ a: Long.fromNumber(5) }, { a: 5 }, true],
    [{ a: 5 }, { a: new Double(5) }, true],
    [{ a: Decimal128.fromString('5.0') }, { a: Long.fromNumber(5) }, true],
    [{ a: NaN }, { a: NaN }, true],
    [{ a: Decimal128.fromString('NaN') }, { a: NaN }, true],
    [{ a: -0 }, { a: 0 }, true],
    [{ a: 'x' }, { a: new BSONSymbol('x') }, true],
    [{ a: new BSONSymbol('x') }, { a: 'x' }, true],
    [{ a: true }, { a: 1 }, false],
    [{ a: [1, 2, 3] }, { a: 2 }, true],
    [{ a: [1, 2, 3] }, { a: [1, 2, 3] }, true],
    [{ a: [1, 2, 3] }, { a: [1, 2] }, false],
    [{ a: [[1, 2], 3] }, { a: [1, 2] }, true],
    [{ a: [[1, 2], 3] }, { a: 1 }, false],
    [{ a: { b: 1, c: 2 } }, { a: { b: 1, c: 2 } }, true],
    [{ a: { b: 1, c: 2 } }, { a: { c: 2, b: 1 } }, false],
    [{ a: { b: 1, c: 2 } }, { a: { b: 1 } }, false],
    [{ a: { b: Long.fromNumber(1) } }, { a: { b: 1 } }, true],
    [{ a: {} }, { a: {} }, true],
    [{ a: [] }, { a: [] }, true],
    [{ a: [] }, { a: null }, false],
    [{ a: { b: { c: 1 } } }, { 'a.b.c': 1 }, true],
    [{ a: { b: { c: 1 } } }, { 'a.b': { c: 1 } }, true],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.b': 2 }, true],
    [{ a: [{ b: [1, 2] }, { b: [3] }] }, { 'a.b': 3 }, true],
    [{ a: [{ b: [1, 2] }, { b: [3] }] }, { 'a.b': [3] }, true],
    [{ a: [[{ b: 1 }]] }, { 'a.b': 1 }, false],
    [{ a: [5, 6] }, { 'a.1': 6 }, true],
    [{ a: [5, 6] }, { 'a.1': 5 }, false],
    [{ a: [{ b: 5 }, { b: 6 }] }, { 'a.1.b': 6 }, true],
    [{ a: [{ b: 5 }, { b: 6 }] }, { 'a.0.b': 6 }, false],
    [{ a: { 0: 'x' } }, { 'a.0': 'x' }, true],
    [{ a: [{ 0: 'x' }] }, { 'a.0': 'x' }, true],
    [{ a: [[7, 8]] }, { 'a.0.1': 8 }, true],
    [{ a: [5] }, { 'a.00': 5 }, false],
    [{ _id: new ObjectId('0123456789abcdef01234567') }, { _id: new ObjectId('0123456789abcdef01234567') }, true],
    [{ _id: new ObjectId('0123456789abcdef01234567') }, { _id: new ObjectId('0123456789abcdef01234568') }, false],
    [{ d: new Date(5) }, { d: new Date(5) }, true],
    [{ a: new MinKey() }, { a: new MinKey() }, true],
    [{ a: 1, b: 2 }, { a: 1, b: 2 }, true],
    [{ a: 1, b: 2 }, { a: 1, b: 3 }, false],
    [{ a: { $ref: 'c', $id: 1 } }, { a: { $ref: 'c', $id: 1 } }, true],
    [{ $id: 5 }, { $id: 5 }, true],
  ]);
});

describe('null matches null and missing, not undefined', () => {
  run([
    [{ a: null }, { a: null }, true],
    [{}, { a: null }, true],
    [{ a: undefined }, { a: null }, false],
    [{ a: [1, null] }, { a: null }, true],
    [{ a: [1, 2] }, { a: null }, false],
    [{ a: 1 }, { 'a.b': null }, true],
    [{ a: [{ b: 1 }, { c: 1 }] }, { 'a.b': null }, true],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.b': null }, false],
    [{ a: [1, 2] }, { 'a.b': null }, false],
    [{ a: [] }, { 'a.b': null }, false],
    [{}, { a: { $eq: null } }, true],
    [{}, { a: { $ne: null } }, false],
    [{ a: 0 }, { a: { $ne: null } }, true],
    [{ a: [1, null] }, { a: { $ne: null } }, false],
    [{}, { a: { $lte: null } }, true],
    [{}, { a: { $gte: null } }, true],
    [{}, { a: { $lt: null } }, false],
    [{}, { a: { $gt: null } }, false],
    [{ a: null }, { a: { $lte: null } }, true],
    [{ a: null }, { a: { $lt: null } }, false],
  ]);
});

describe('$eq and $ne', () => {
  run([
    [{ a: 1 }, { a: { $eq: 1 } }, true],
    [{ a: [1, 2] }, { a: { $eq: 2 } }, true],
    [{ a: { $gt: 1 } }, { a: { $eq: { $gt: 1 } } }, true],
    [{ a: new BSONRegExp('x', 'i') }, { a: { $eq: new BSONRegExp('x', 'i') } }, true],
    [{ a: 'x' }, { a: { $eq: new BSONRegExp('x', '') } }, false],
    [{ a: 1 }, { a: { $ne: 1 } }, false],
    [{ a: 2 }, { a: { $ne: 1 } }, true],
    [{}, { a: { $ne: 1 } }, true],
    [{ a: [1, 2] }, { a: { $ne: 1 } }, false],
    [{ a: [2, 3] }, { a: { $ne: 1 } }, true],
    [{ a: [1, 2] }, { a: { $ne: [1, 2] } }, false],
  ]);
});

describe('ordering comparisons are type-bracketed', () => {
  run([
    [{ a: 5 }, { a: { $gt: 4 } }, true],
    [{ a: 5 }, { a: { $gt: 5 } }, false],
    [{ a: 5 }, { a: { $gte: 5 } }, true],
    [{ a: 5 }, { a: { $lt: 6 } }, true],
    [{ a: 5 }, { a: { $lte: 4 } }, false],
    [{ a: 'x' }, { a: { $gt: 5 } }, false],
    [{ a: 'x' }, { a: { $lt: 5 } }, false],
    [{ a: 5 }, { a: { $gt: 'a' } }, false],
    [{ a: 'b' }, { a: { $gt: 'a' } }, true],
    [{ a: 'B' }, { a: { $gt: 'a' } }, false],
    [{ a: null }, { a: { $gt: 0 } }, false],
    [{}, { a: { $gt: 0 } }, false],
    [{ a: Long.fromString('9007199254740993') }, { a: { $gt: 9007199254740992 } }, true],
    [{ a: 9007199254740992 }, { a: { $lt: Long.fromString('9007199254740993') } }, true],
    [{ a: Decimal128.fromString('2.5') }, { a: { $gt: 2 } }, true],
    [{ a: 2 }, { a: { $lt: Decimal128.fromString('2.5') } }, true],
    [{ a: new Date(10) }, { a: { $gt: new Date(5) } }, true],
    [{ a: new Date(10) }, { a: { $gt: 5 } }, false],
    [{ a: [1, 10] }, { a: { $gt: 5, $lt: 8 } }, true],
    [{ a: [1, 10] }, { a: { $elemMatch: { $gt: 5, $lt: 8 } } }, false],
    [{ a: [2] }, { a: { $gt: [1] } }, true],
    [{ a: [[2]] }, { a: { $gt: [1] } }, true],
    [{ a: { b: 2 } }, { a: { $gt: { b: 1 } } }, true],
    [{ a: true }, { a: { $gt: false } }, true],
    [{ a: new ObjectId('000000000000000000000002') }, { a: { $gte: new ObjectId('000000000000000000000001') } }, true],
  ]);
});

describe('NaN is equal to NaN and otherwise incomparable', () => {
  run([
    [{ a: NaN }, { a: { $gt: 0 } }, false],
    [{ a: NaN }, { a: { $lt: 0 } }, false],
    [{ a: NaN }, { a: { $lte: NaN } }, true],
    [{ a: NaN }, { a: { $gte: NaN } }, true],
    [{ a: NaN }, { a: { $lt: NaN } }, false],
    [{ a: 5 }, { a: { $gt: NaN } }, false],
    [{ a: 5 }, { a: { $gte: NaN } }, false],
    [{ a: Decimal128.fromString('NaN') }, { a: { $gte: NaN } }, true],
  ]);
});

describe('MinKey and MaxKey bound every type', () => {
  run([
    [{ a: 'x' }, { a: { $gt: new MinKey() } }, true],
    [{ a: null }, { a: { $gte: new MinKey() } }, true],
    [{}, { a: { $gt: new MinKey() } }, true],
    [{ a: 'x' }, { a: { $lt: new MinKey() } }, false],
    [{ a: 5 }, { a: { $lt: new MaxKey() } }, true],
    [{}, { a: { $lte: new MaxKey() } }, true],
    [{ a: 5 }, { a: { $gt: new MaxKey() } }, false],
    [{ a: 5 }, { a: { $eq: new MaxKey() } }, false],
    [{ a: new MaxKey() }, { a: { $gte: new MaxKey() } }, true],
    [{ a: new MaxKey() }, { a: { $gt: new MaxKey() } }, false],
  ]);
});

describe('$in and $nin', () => {
  run([
    [{ a: 2 }, { a: { $in: [1, 2] } }, true],
    [{ a: 3 }, { a: { $in: [1, 2] } }, false],
    [{ a: Long.fromNumber(2) }, { a: { $in: [1, 2] } }, true],
    [{ a: 2 }, { a: { $in: [Decimal128.fromString('2.00')] } }, true],
    [{ a: Decimal128.fromString('2') }, { a: { $in: [1, 2] } }, true],
    [{ a: Long.fromString('9007199254740993') }, { a: { $in: [9007199254740992] } }, false],
    [{ a: Long.fromString('9007199254740993') }, { a: { $in: [Long.fromString('9007199254740993')] } }, true],
    [{ a: [3, 4] }, { a: { $in: [4, 5] } }, true],
    [{ a: [3, 4] }, { a: { $in: [[3, 4]] } }, true],
    [{ a: 'abc' }, { a: { $in: [/^a/, 'zzz'] } }, true],
    [{ a: 'xbc' }, { a: { $in: [new BSONRegExp('^a', ''), 'zzz'] } }, false],
    [{ a: 'ABC' }, { a: { $in: [new BSONRegExp('^a', 'i')] } }, true],
    [{}, { a: { $in: [null] } }, true],
    [{}, { a: { $in: [1] } }, false],
    [{ a: null }, { a: { $in: [null, 1] } }, true],
    [{ a: { b: 1 } }, { a: { $in: [{ b: 1 }] } }, true],
    [{ a: new ObjectId('0123456789abcdef01234567') }, { a: { $in: [new ObjectId('0123456789abcdef01234567')] } }, true],
    [{ a: 'x' }, { a: { $in: [new BSONSymbol('x')] } }, true],
    [{ a: 1 }, { a: { $in: [] } }, false],
    [{ a: 1 }, { a: { $nin: [1, 2] } }, false],
    [{ a: 3 }, { a: { $nin: [1, 2] } }, true],
    [{}, { a: { $nin: [1, 2] } }, true],
    [{}, { a: { $nin: [null] } }, false],
    [{ a: [1, 3] }, { a: { $nin: [1] } }, false],
    [{ a: 1 }, { a: { $nin: [] } }, true],
  ]);
});

describe('field names that objects inherit are ordinary fields', () => {
  run([
    [{}, { constructor: null }, true],
    [{}, { toString: { $exists: true } }, false],
    [{ toString: 1 }, { toString: 1 }, true],
    [{ a: {} }, { 'a.hasOwnProperty': { $exists: false } }, true],
    [{ a: [{ valueOf: 2 }] }, { 'a.valueOf': 2 }, true],
  ]);
});
