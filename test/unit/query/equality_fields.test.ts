import { describe, expect, test } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
import { equalityFields, isEmptyFilter } from '../../../src/storage/query/compile_filter.js';
import { thrown } from './helpers.js';

describe('equalityFields', () => {
  test.each([
    [{}, {}],
    [{ a: 1, 'b.c': 2, $and: [{ d: 3 }] }, { a: 1, b: { c: 2 }, d: 3 }],
    [{ a: { $eq: 5 } }, { a: 5 }],
    [{ a: { $eq: 5, $gt: 1 } }, { a: 5 }],
    [{ a: { $in: [7] } }, { a: 7 }],
    [{ a: { $in: [7, 8] } }, {}],
    [{ $or: [{ a: 1 }] }, { a: 1 }],
    [{ $or: [{ a: 1 }, { b: 2 }] }, {}],
    [{ $nor: [{ a: 1 }] }, {}],
    [{ a: { $gt: 1 } }, {}],
    [{ a: /x/ }, {}],
    [{ a: { $eq: /x/ } }, {}],
    [{ a: { b: 1 } }, { a: { b: 1 } }],
    [{ a: null }, { a: null }],
    [{ a: Long.fromNumber(3) }, { a: Long.fromNumber(3) }],
    [{ 'a.b': 1, 'a.c': 2 }, { a: { b: 1, c: 2 } }],
    [{ $and: [{ a: 1 }, { $and: [{ b: 2 }] }], $comment: 'x' }, { a: 1, b: 2 }],
    [{ a: { $ref: 'c', $id: 1 } }, { a: { $ref: 'c', $id: 1 } }],
  ] as Array<[Document, Document]>)('%j → %j', (filter, expected) => {
    expect(equalityFields(filter)).toEqual(expected);
  });

  test('values are copied', () => {
    const filter = { a: { b: [1] } };
    const out = equalityFields(filter);
    (out.a as { b: number[] }).b.push(2);
    expect(filter.a.b).toEqual([1]);
  });

  test.each([
    [{ a: 1, $and: [{ a: 2 }] }, "cannot infer query fields to set, path 'a' is matched twice"],
    [{ a: 1, 'a.b': 2 }, "cannot infer query fields to set, both paths 'a.b' and 'a' are matched"],
  ] as Array<[Document, string]>)('%j → 54 %s', (filter, message) => {
    expect(thrown(() => equalityFields(filter))).toEqual({ code: 54, codeName: 'NotSingleValueField', message });
  });
});

describe('isEmptyFilter', () => {
  test.each([
    [{}, true],
    [{ $comment: 'x' }, true],
    [{ a: 1 }, false],
    [{ $and: [{}] }, false],
  ] as Array<[Document, boolean]>)('%j → %s', (filter, expected) => {
    expect(isEmptyFilter(filter)).toBe(expected);
  });
});
