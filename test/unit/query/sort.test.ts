import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, MaxKey, MinKey, type Document } from '../../../src/bson/library.js';
import { compileSort } from '../../../src/storage/query/sort.js';
import { thrown } from './helpers.js';

/** The `_id`s of `docs` sorted by `spec` (stable). */
const order = (docs: Document[], spec: Document): unknown[] => docs.slice().sort(compileSort(spec)).map((d) => d._id);

describe('compileSort', () => {
  test('ascending and descending over numbers of every type', () => {
    const docs = [
      { _id: 1, a: 3 },
      { _id: 2, a: Long.fromNumber(1) },
      { _id: 3, a: new Double(2.5) },
      { _id: 4, a: Decimal128.fromString('-1') },
      { _id: 5, a: 2 },
    ];
    expect(order(docs, { a: 1 })).toEqual([4, 2, 5, 3, 1]);
    expect(order(docs, { a: -1 })).toEqual([1, 3, 5, 2, 4]);
    expect(order(docs, { a: Long.fromNumber(-1) })).toEqual([1, 3, 5, 2, 4]);
    expect(order(docs, { a: new Double(1) })).toEqual([4, 2, 5, 3, 1]);
    expect(order(docs, { a: Decimal128.fromString('1') })).toEqual([4, 2, 5, 3, 1]);
  });

  test('types sort in BSON order; missing sorts as null; empty array below null', () => {
    const docs = [
      { _id: 'str', a: 'x' },
      { _id: 'num', a: 1 },
      { _id: 'missing' },
      { _id: 'null', a: null },
      { _id: 'obj', a: { b: 1 } },
      { _id: 'max', a: new MaxKey() },
      { _id: 'min', a: new MinKey() },
      { _id: 'empty', a: [] },
      { _id: 'bool', a: false },
      { _id: 'date', a: new Date(0) },
    ];
    expect(order(docs, { a: 1 })).toEqual(['min', 'empty', 'missing', 'null', 'num', 'str', 'obj', 'bool', 'date', 'max']);
  });

  test('arrays sort by their smallest element ascending and largest descending', () => {
    const docs = [
      { _id: 1, a: [5, 1] },
      { _id: 2, a: 3 },
      { _id: 3, a: [2, 4] },
      { _id: 4, a: [0, 10] },
    ];
    expect(order(docs, { a: 1 })).toEqual([4, 1, 3, 2]);
    expect(order(docs, { a: -1 })).toEqual([4, 1, 3, 2]);
    const docs2 = [
      { _id: 1, a: [5, 1] },
      { _id: 2, a: 6 },
      { _id: 3, a: [2, 4] },
    ];
    expect(order(docs2, { a: -1 })).toEqual([2, 1, 3]);
  });

  test('dotted paths fan out over arrays of documents', () => {
    const docs = [
      { _id: 1, a: [{ b: 5 }, { b: 1 }] },
      { _id: 2, a: { b: 3 } },
      { _id: 3, a: [{ b: 2 }, { c: 9 }] },
      { _id: 4, a: [{ b: 4 }] },
    ];
    // _id 3 has a missing b in one element, which sorts as null (lowest).
    expect(order(docs, { 'a.b': 1 })).toEqual([3, 1, 2, 4]);
    expect(order(docs, { 'a.b': -1 })).toEqual([1, 4, 2, 3]);
    expect(order([{ _id: 1, a: [7, 3] }, { _id: 2, a: [5, 9] }], { 'a.1': 1 })).toEqual([1, 2]);
  });

  test('compound keys and stability', () => {
    const docs = [
      { _id: 1, a: 1, b: 'y' },
      { _id: 2, a: 0, b: 'z' },
      { _id: 3, a: 1, b: 'x' },
      { _id: 4, a: 0, b: 'z' },
    ];
    expect(order(docs, { a: 1, b: 1 })).toEqual([2, 4, 3, 1]);
    expect(order(docs, { a: -1, b: -1 })).toEqual([1, 3, 2, 4]);
    expect(order(docs, {})).toEqual([1, 2, 3, 4]);
  });

  test('strings sort by UTF-8 bytes, not by locale', () => {
    const docs = [
      { _id: 1, s: 'b' },
      { _id: 2, s: 'B' },
      { _id: 3, s: 'a' },
      { _id: 4, s: '\u{1F600}' },
      { _id: 5, s: '\uFFFD' },
    ];
    expect(order(docs, { s: 1 })).toEqual([2, 3, 1, 5, 4]);
  });

  test.each([
    [{ a: 'x' }, 15974, 'Illegal key in $sort specification: a: "x"'],
    [{ a: true }, 15974, 'Illegal key in $sort specification: a: true'],
    [{ a: null }, 15974, 'Illegal key in $sort specification: a: null'],
    [{ a: [1] }, 15974, 'Illegal key in $sort specification: a: [ 1 ]'],
    [{ a: 0 }, 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    [{ a: 2 }, 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    [{ a: 0.5 }, 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    [{ a: Long.MAX_VALUE }, 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    [{ a: { x: 1 } }, 17312, '$meta is the only expression supported by $sort right now'],
    [{ a: { $meta: 'textScore', x: 1 } }, 9, 'Cannot have additional keys in a $meta sort specification'],
    [{ a: { $meta: 'sortKey' } }, 31138, 'Illegal $meta sort: $meta: "sortKey"'],
    [{ '': 1 }, 40352, 'FieldPath cannot be constructed with empty string'],
    [{ 'a.': 1 }, 40353, "FieldPath must not end with a '.'."],
    [{ 'a..b': 1 }, 15998, 'FieldPath field names may not be empty strings.'],
    [{ $a: 1 }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
  ] as Array<[Document, number, string]>)('%j → %i', (spec, code, message) => {
    const err = thrown(() => compileSort(spec));
    expect(err?.code).toBe(code);
    expect(err?.message).toBe(message);
  });

  test('more than 32 keys', () => {
    const spec: Document = {};
    for (let i = 0; i < 33; i++) spec[`k${i}`] = 1;
    expect(thrown(() => compileSort(spec))).toEqual({ code: 13103, codeName: 'Location13103', message: 'too many compound keys' });
  });
});
