import { describe, expect, test } from 'vitest';
import { BSONRegExp, type Document } from '../../../src/bson/library.js';
import { matches } from './helpers.js';

type Row = [Document, Document, boolean];
const run = (rows: Row[]) =>
  test.each(rows)('%j matches %j → %s', (doc, filter, expected) => {
    expect(matches(doc, filter)).toBe(expected);
  });

describe('$and / $or / $nor', () => {
  run([
    [{ a: 1, b: 2 }, { $and: [{ a: 1 }, { b: 2 }] }, true],
    [{ a: 1, b: 2 }, { $and: [{ a: 1 }, { b: 3 }] }, false],
    [{ a: 1 }, { $or: [{ a: 2 }, { a: 1 }] }, true],
    [{ a: 1 }, { $or: [{ a: 2 }, { b: 1 }] }, false],
    [{ a: 1 }, { $nor: [{ a: 2 }, { b: 1 }] }, true],
    [{ a: 1 }, { $nor: [{ a: 1 }] }, false],
    [{ a: 1, b: 1 }, { a: 1, $or: [{ b: 2 }, { b: 1 }] }, true],
    [{ a: 1 }, { $and: [{ $or: [{ a: 1 }] }, { $nor: [{ a: 2 }] }] }, true],
    [{ a: 1 }, { $and: [{}] }, true],
    [{ a: 1 }, { $or: [{}, { a: 2 }] }, true],
    [{ a: 1 }, { $nor: [{}] }, false],
    [{ a: 1 }, { $comment: 'ignored', a: 1 }, true],
  ]);
});

describe('$not', () => {
  run([
    [{ a: 5 }, { a: { $not: { $gt: 3 } } }, false],
    [{ a: 2 }, { a: { $not: { $gt: 3 } } }, true],
    [{}, { a: { $not: { $gt: 3 } } }, true],
    [{ a: 'x' }, { a: { $not: { $gt: 3 } } }, true],
    [{ a: [1, 5] }, { a: { $not: { $gt: 3 } } }, false],
    [{ a: 5 }, { a: { $not: { $gt: 3, $lt: 4 } } }, true],
    [{ a: 'abc' }, { a: { $not: /^a/ } }, false],
    [{ a: 'xbc' }, { a: { $not: new BSONRegExp('^a', '') } }, true],
    [{ a: 'ABC' }, { a: { $not: { $regex: '^a', $options: 'i' } } }, false],
    [{ a: 1 }, { a: { $not: { $in: [1, 2] } } }, false],
    [{ a: [1, 2] }, { a: { $not: { $size: 2 } } }, false],
    [{ a: 1 }, { a: { $not: { $not: { $eq: 1 } } } }, true],
  ]);
});
