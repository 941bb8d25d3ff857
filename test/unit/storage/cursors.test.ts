/**
 * The cursor manager's first batch: a result that fits in it registers no cursor (id 0), a
 * longer one registers a cursor that hands out the rest.
 */
import { describe, expect, it } from 'vitest';
import { Long } from '../../../src/bson.js';
import { CursorManager } from '../../../src/storage/cursors.js';

const docs = (n: number) => Array.from({ length: n }, (_, i) => ({ _id: i }));

describe('CursorManager.firstBatch', () => {
  it('registers no cursor when the whole result fits in the first batch', () => {
    const cursors = new CursorManager();
    const { batch, id } = cursors.firstBatch('db.c', docs(3)[Symbol.iterator](), 0, { maxDocs: 101, singleBatch: false, noTimeout: false });
    expect(batch).toEqual([{ _id: 0 }, { _id: 1 }, { _id: 2 }]);
    expect(id.equals(Long.ZERO)).toBe(true);
    expect(cursors.size).toBe(0);
  });

  it('registers a cursor for the rest, which getMore reads', () => {
    const cursors = new CursorManager();
    const { batch, id } = cursors.firstBatch('db.c', docs(5)[Symbol.iterator](), 0, { maxDocs: 2, singleBatch: false, noTimeout: false });
    expect(batch).toEqual([{ _id: 0 }, { _id: 1 }]);
    expect(id.equals(Long.ZERO)).toBe(false);
    expect(cursors.size).toBe(1);
    const cursor = cursors.get(id, 0);
    expect(cursor.id.equals(id)).toBe(true);
    expect(cursor.nextBatch(undefined)).toEqual([{ _id: 2 }, { _id: 3 }, { _id: 4 }]);
    expect(cursor.exhausted).toBe(true);
  });

  it('singleBatch closes the source after the first batch', () => {
    const cursors = new CursorManager();
    let closed = false;
    const source = (function* () {
      try {
        yield* docs(5);
      } finally {
        closed = true;
      }
    })();
    const { batch, id } = cursors.firstBatch('db.c', source, 0, { maxDocs: 1, singleBatch: true, noTimeout: false });
    expect(batch).toEqual([{ _id: 0 }]);
    expect(id.equals(Long.ZERO)).toBe(true);
    expect(cursors.size).toBe(0);
    expect(closed).toBe(true);
  });
});
