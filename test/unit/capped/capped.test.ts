/** The capped collection bookkeeping: eviction by count and by size, sizes after updates and removals. */
import { describe, expect, test } from 'vitest';
import { bsonSize } from '../../../src/bson/encode.js';
import { cappedLimitsOf, UNLIMITED_CAPPED_DOCS } from '../../../src/storage/capped.js';
import { Collection } from '../../../src/storage/collection.js';

const ids = (coll: Collection) => [...coll.allRecords()].map((r) => r.doc._id);

describe('capped collections', () => {
  test('limits from the stored options', () => {
    expect(cappedLimitsOf({})).toBeUndefined();
    expect(cappedLimitsOf({ capped: true, size: 4096 })).toEqual({ maxBytes: 4096, maxDocs: UNLIMITED_CAPPED_DOCS });
    expect(cappedLimitsOf({ capped: true, size: 4096, max: 3 })).toEqual({ maxBytes: 4096, maxDocs: 3 });
  });

  test('by count: the oldest go first', () => {
    const coll = new Collection('d', 'c', { capped: true, size: 100000, max: 2 });
    for (const _id of [1, 2, 3, 4]) coll.insert({ _id }, 0);
    expect(ids(coll)).toEqual([3, 4]);
  });

  test('by size, with sizes kept through updates and removals', () => {
    const doc = (_id: number, pad: string) => ({ _id, pad });
    const size = bsonSize(doc(1, 'xxxx'));
    const coll = new Collection('d', 'c', { capped: true, size: size * 3 });
    for (const _id of [1, 2, 3]) coll.insert(doc(_id, 'xxxx'), 0);
    expect([ids(coll), coll.capped!.dataSize]).toEqual([[1, 2, 3], size * 3]);
    // Growing document 3 makes the next insert evict two.
    coll.update(coll.rawGet([...coll.allRecords()][2]!.id)!, doc(3, 'xxxxxxxxxxxx'), 0);
    coll.insert(doc(4, 'xxxx'), 0);
    expect(ids(coll)).toEqual([3, 4]);
    coll.remove([...coll.allRecords()][0]!);
    expect(coll.capped!.dataSize).toBe(size);
    coll.clear();
    expect(coll.capped!.dataSize).toBe(0);
  });

  test('a document larger than the collection is refused before anything changes', () => {
    const coll = new Collection('d', 'c', { capped: true, size: 30 });
    coll.insert({ _id: 1 }, 0);
    expect(() => coll.insert({ _id: 2, pad: 'x'.repeat(40) }, 0)).toThrow('object to insert exceeds cappedMaxSize');
    expect(ids(coll)).toEqual([1]);
  });
});
