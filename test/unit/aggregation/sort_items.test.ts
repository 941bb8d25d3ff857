/** The keyed sorts of `$sort` and the planner: stable full sorts (the numeric path too) and top-k under a limit. */
import { describe, expect, it } from 'vitest';
import { Double, Long, type Document } from '../../../src/bson/library.js';
import { compileKeyedSort, sortItems } from '../../../src/storage/query/sort.js';

const ids = (docs: Document[]): unknown[] => docs.map((d) => d._id);
const sorted = (spec: Document, docs: Document[], limit = 0): unknown[] => ids(sortItems(docs, (d) => d, compileKeyedSort(spec), limit));

const DOCS: Document[] = [
  { _id: 1, v: 3 },
  { _id: 2, v: -0 },
  { _id: 3, v: 1.5 },
  { _id: 4, v: 0 },
  { _id: 5, v: Infinity },
  { _id: 6, v: 3 },
  { _id: 7, v: -Infinity },
  { _id: 8, v: Infinity },
];

describe('sortItems', () => {
  it('sorts plain numbers stably, -0 equal to 0, infinities tied', () => {
    expect(sorted({ v: 1 }, DOCS)).toEqual([7, 2, 4, 3, 1, 6, 5, 8]);
    expect(sorted({ v: -1 }, DOCS)).toEqual([5, 8, 1, 6, 3, 2, 4, 7]);
  });

  it('sorts mixed types in BSON order, stably', () => {
    const docs = [{ _id: 1, v: 'b' }, { _id: 2, v: Long.fromNumber(2) }, { _id: 3 }, { _id: 4, v: 1 }, { _id: 5, v: null }, { _id: 6, v: NaN }];
    expect(sorted({ v: 1 }, docs)).toEqual([3, 5, 6, 4, 2, 1]);
  });

  it('keeps the first k of a full sort under a limit, ties in input order', () => {
    for (const k of [1, 3, 5, 8, 20]) {
      expect(sorted({ v: 1 }, DOCS, k)).toEqual(sorted({ v: 1 }, DOCS).slice(0, k));
      expect(sorted({ v: -1, _id: 1 }, DOCS, k)).toEqual(sorted({ v: -1, _id: 1 }, DOCS).slice(0, k));
    }
  });

  it('sorts integers packed with their positions (ascending, descending, ties, -0, negatives)', () => {
    const docs = [5, -3, 0, 5, -0, 7, -3, 2].map((v, i) => ({ _id: i + 1, v }));
    expect(sorted({ v: 1 }, docs)).toEqual([2, 7, 3, 5, 8, 1, 4, 6]);
    expect(sorted({ v: -1 }, docs)).toEqual([6, 1, 4, 8, 3, 5, 2, 7]);
  });

  it('falls back to the comparator when the span is too wide to pack', () => {
    const docs = [{ _id: 1, v: 2 ** 52 }, { _id: 2, v: -(2 ** 52) }, { _id: 3, v: 0 }, { _id: 4, v: 2 ** 52 }];
    expect(sorted({ v: 1 }, docs)).toEqual([2, 3, 1, 4]);
    expect(sorted({ v: -1 }, docs)).toEqual([1, 4, 3, 2]);
  });

  it('sorts Double wrappers with plain numbers by value, equal values in input order', () => {
    const docs = [{ _id: 1, v: new Double(2) }, { _id: 2, v: 1 }, { _id: 3, v: 2 }, { _id: 4, v: new Double(1) }, { _id: 5, v: 1.5 }];
    expect(sorted({ v: 1 }, docs)).toEqual([2, 4, 5, 1, 3]);
    expect(sorted({ v: -1 }, docs, 2)).toEqual([1, 3]);
  });

  it('sorts arrays by their extreme element and missing as null, in full and top-k', () => {
    const docs = [{ _id: 1, v: [4, 1] }, { _id: 2, v: 2 }, { _id: 3 }, { _id: 4, v: [3, 9] }, { _id: 5, v: null }];
    expect(sorted({ v: 1 }, docs)).toEqual([3, 5, 1, 2, 4]);
    expect(sorted({ v: -1 }, docs)).toEqual([4, 1, 2, 3, 5]);
    expect(sorted({ v: 1 }, docs, 3)).toEqual([3, 5, 1]);
    expect(sorted({ v: -1 }, docs, 2)).toEqual([4, 1]);
  });

  it('uses a given value reader for a one-key sort', () => {
    const docs = [{ _id: 1, w: 3 }, { _id: 2, w: 1 }, { _id: 3, w: 2 }];
    const keyed = compileKeyedSort({ v: 1 });
    expect(keyed.field).toBe('v');
    expect(compileKeyedSort({ 'v.w': 1 }).field).toBe(null);
    expect(ids(sortItems(docs, () => ({}), keyed, 0, (d) => d.w))).toEqual([2, 3, 1]);
    expect(ids(sortItems(docs, () => ({}), keyed, 2, (d) => d.w))).toEqual([2, 3]);
  });
});
