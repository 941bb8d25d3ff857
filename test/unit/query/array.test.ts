import { describe, expect, test } from 'vitest';
import { BSONRegExp, Long, type Document } from '../../../src/bson/library.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];
const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('$elemMatch (value form)', () => {
  run([
    [{ a: [1, 5, 9] }, { a: { $elemMatch: { $gt: 4, $lt: 6 } } }, true],
    [{ a: [1, 9] }, { a: { $elemMatch: { $gt: 4, $lt: 6 } } }, false],
    [{ a: 5 }, { a: { $elemMatch: { $gt: 4 } } }, false],
    [{}, { a: { $elemMatch: { $gt: 4 } } }, false],
    [{ a: [[5]] }, { a: { $elemMatch: { $gt: 4 } } }, false],
    [{ a: [[5]] }, { a: { $elemMatch: { $elemMatch: { $gt: 4 } } } }, true],
    [{ a: ['abc'] }, { a: { $elemMatch: { $regex: '^a' } } }, true],
    [{ a: [1, 2] }, { a: { $elemMatch: { $in: [2, 3] } } }, true],
    [{ a: [1, 2] }, { a: { $elemMatch: { $ne: 1 } } }, true],
    [{ a: [1, 1] }, { a: { $elemMatch: { $ne: 1 } } }, false],
    [{ a: [1, 2] }, { a: { $elemMatch: { $not: { $gt: 1 } } } }, true],
    [{ a: [[1, 2]] }, { a: { $elemMatch: { $size: 2 } } }, true],
    [{ a: [null] }, { a: { $elemMatch: { $exists: true } } }, true],
    [{ a: [{ b: [1, 5] }, { b: [9] }] }, { 'a.b': { $elemMatch: { $gt: 4, $lt: 6 } } }, true],
  ]);
});

describe('$elemMatch (document form)', () => {
  run([
    [{ a: [{ b: 1, c: 2 }, { b: 2, c: 1 }] }, { a: { $elemMatch: { b: 1, c: 2 } } }, true],
    [{ a: [{ b: 1, c: 1 }, { b: 2, c: 2 }] }, { a: { $elemMatch: { b: 1, c: 2 } } }, false],
    [{ a: [{ b: 1, c: 1 }, { b: 2, c: 2 }] }, { 'a.b': 1, 'a.c': 2 }, true],
    [{ a: [{ b: 5 }] }, { a: { $elemMatch: { b: { $gt: 4 } } } }, true],
    [{ a: [{ b: [1, 5] }] }, { a: { $elemMatch: { b: 5 } } }, true],
    [{ a: [{ b: 1 }, 3] }, { a: { $elemMatch: { $or: [{ b: 2 }, { b: 1 }] } } }, true],
    [{ a: [{ b: 1 }] }, { a: { $elemMatch: { $and: [{ b: 1 }] } } }, true],
    [{ a: [{ b: 1 }] }, { a: { $elemMatch: {} } }, true],
    [{ a: [1] }, { a: { $elemMatch: {} } }, false],
    [{ a: [[7]] }, { a: { $elemMatch: { 0: 7 } } }, true],
    [{ a: { b: 1 } }, { a: { $elemMatch: { b: 1 } } }, false],
    [{ a: [{ $ref: 'x', $id: 1 }] }, { a: { $elemMatch: { $ref: 'x' } } }, true],
  ]);
});

describe('$size', () => {
  run([
    [{ a: [1, 2] }, { a: { $size: 2 } }, true],
    [{ a: [1, 2] }, { a: { $size: 1 } }, false],
    [{ a: [] }, { a: { $size: 0 } }, true],
    [{}, { a: { $size: 0 } }, false],
    [{ a: 'ab' }, { a: { $size: 2 } }, false],
    [{ a: [[1, 2, 3]] }, { a: { $size: 3 } }, false],
    [{ a: [[1, 2, 3]] }, { a: { $size: 1 } }, true],
    [{ a: [1, 2] }, { a: { $size: 2.0 } }, true],
    [{ a: [1, 2] }, { a: { $size: Long.fromNumber(2) } }, true],
    [{ a: [{ b: [1, 2] }, { b: [1] }] }, { 'a.b': { $size: 1 } }, true],
  ]);
});

describe('$all', () => {
  run([
    [{ a: [1, 2, 3] }, { a: { $all: [1, 3] } }, true],
    [{ a: [1, 2, 3] }, { a: { $all: [1, 4] } }, false],
    [{ a: 1 }, { a: { $all: [1] } }, true],
    [{ a: [1] }, { a: { $all: [] } }, false],
    [{ a: [[1, 2], 3] }, { a: { $all: [[1, 2]] } }, true],
    [{ a: [1, 2] }, { a: { $all: [[1, 2]] } }, true],
    [{ a: ['abc', 'x'] }, { a: { $all: [/^a/, 'x'] } }, true],
    [{ a: ['abc'] }, { a: { $all: [new BSONRegExp('^b', '')] } }, false],
    [{ a: [{ b: 1 }, { b: 2 }] }, { a: { $all: [{ $elemMatch: { b: 1 } }, { $elemMatch: { b: 2 } }] } }, true],
    [{ a: [{ b: 1 }] }, { a: { $all: [{ $elemMatch: { b: 1 } }, { $elemMatch: { b: 2 } }] } }, false],
    [{ a: [{ b: 1 }] }, { a: { $all: [{ b: 1 }] } }, true],
    [{}, { a: { $all: [null] } }, true],
  ]);
});
