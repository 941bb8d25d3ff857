/**
 * The cursor manager's first batch: a result that fits in it registers no cursor (id 0), a
 * longer one registers a cursor that hands out the rest; and the re-checking source find reads through.
 */
import { describe, expect, it } from 'vitest';
import { Long, type Document } from '../../../src/bson/library.js';
import type { StoredDocument } from '../../../src/storage/record.js';
import { CursorManager, recordSource } from '../../../src/storage/cursors.js';

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

describe('recordSource', () => {
  const recs: StoredDocument[] = [1, 2, 3].map((i) => ({ id: `n${i}`, doc: { _id: i, a: i * 10 }, modifiedAtMs: 0 }));

  it('hands out each record\'s document, projected, and re-checks only the one read ahead', () => {
    const live = new Set(recs);
    const source = recordSource(recs[Symbol.iterator](), (d) => ({ a: d.a }), (rec) => live.has(rec));
    const first = source.next();
    expect(first).toEqual({ done: false, value: { a: 10 } });
    const second = source.next();
    expect(second).toEqual({ done: false, value: { a: 20 } });
    // The document read ahead (the second) is re-checked against its record; an earlier one is not.
    live.delete(recs[1]!);
    expect(source.stillValid(second.value as Document)).toBe(false);
    expect(source.stillValid(first.value as Document)).toBe(true);
    expect(source.next()).toEqual({ done: false, value: { a: 30 } });
    expect(source.next()).toEqual({ done: true, value: undefined });
  });

  it('a cursor over it skips a read-ahead document whose record went away before the next batch', () => {
    const live = new Set(recs);
    const cursors = new CursorManager();
    const { batch, id } = cursors.firstBatch('db.c', recordSource(recs[Symbol.iterator](), null, (rec) => live.has(rec)), 0, { maxDocs: 1, singleBatch: false, noTimeout: false });
    expect(batch).toEqual([{ _id: 1, a: 10 }]);
    live.delete(recs[1]!); // read ahead to decide the cursor stays open, then deleted
    expect(cursors.get(id, 0).nextBatch(undefined)).toEqual([{ _id: 3, a: 30 }]);
  });

  it('return() stops the records', () => {
    let stopped = false;
    const records = (function* () {
      try {
        yield* recs;
      } finally {
        stopped = true;
      }
    })();
    const source = recordSource(records, null, () => true);
    source.next();
    expect(source.return()).toEqual({ done: true, value: undefined });
    expect(stopped).toBe(true);
  });
});
