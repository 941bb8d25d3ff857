/** The keyed sorts of `$sort` and the planner: stable full sorts (the numeric path too) and top-k under a limit. */
import { describe, expect, it } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
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
});
