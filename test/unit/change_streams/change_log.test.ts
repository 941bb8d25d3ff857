/**
 * The change log under the write path: a transaction's unit (`WritePath.run(work, {session})`
 * with `inTransaction`) gives events that share its cluster time, are numbered in order and
 * carry its lsid and txnNumber, and one `applyOps` oplog entry; a retryable write's entries carry
 * lsid/txnNumber/stmtId; resume tokens compare in event order; the bound drops the oldest events.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Long, Timestamp, type Document } from '../../../src/bson/library.js';
import { Catalog } from '../../../src/storage/catalog.js';
import { attachChangeLog, decodeResumeToken, describeChange, highWaterMarkToken, resumeToken } from '../../../src/storage/change_log.js';
import { ChangeStreamCursor } from '../../../src/storage/change_stream.js';
import { parseChangeStreamSpec } from '../../../src/storage/aggregation/stages/change_stream.js';

const lsid = { id: new Binary(Buffer.alloc(16, 7), 4) };

function setup(maxEvents?: number) {
  const catalog = new Catalog();
  const log = attachChangeLog(catalog, maxEvents);
  return { catalog, log };
}

function stream(catalog: Catalog, log: ReturnType<typeof attachChangeLog>, spec: Document = {}): ChangeStreamCursor {
  return new ChangeStreamCursor('db.c', 0, parseChangeStreamSpec(spec), { kind: 'collection', db: 'db', coll: 'c' }, {
    log,
    clusterTimeNow: () => new Timestamp({ t: 0, i: 0 }),
    lookup: () => null,
    transform: (e) => [e],
    split: false,
  });
}

describe('a transaction through the change log', () => {
  it('its events share one cluster time, in order, with lsid and txnNumber; the oplog has one applyOps', () => {
    const { catalog, log } = setup();
    const coll = catalog.create('db', 'c');
    const cursor = stream(catalog, log, { startAtOperationTime: new Timestamp({ t: 0, i: 0 }) });
    catalog.writes.run(
      () => {
        coll.insert({ _id: 1 }, 0);
        coll.insert({ _id: 2 }, 0);
        coll.remove([...coll.allRecords()][0]!);
      },
      { session: { lsid, txnNumber: 5n, inTransaction: true } },
    );
    const batch = cursor.nextBatch(undefined);
    expect(batch.map((e) => [e.operationType, e.documentKey, e.lsid, e.txnNumber])).toEqual([
      ['insert', { _id: 1 }, lsid, Long.fromNumber(5)],
      ['insert', { _id: 2 }, lsid, Long.fromNumber(5)],
      ['delete', { _id: 1 }, lsid, Long.fromNumber(5)],
    ]);
    expect(new Set(batch.map((e) => String(e.clusterTime))).size).toBe(1);
    const tokens = batch.map((e) => (e._id as Document)._data as string);
    expect([...tokens].sort()).toEqual(tokens);
    const oplog = [...log.oplogEntries().after(undefined)].filter((e) => e.op !== 'c' || (e.o as Document).applyOps !== undefined);
    expect(oplog.map((e) => [e.op, e.ns, ((e.o as Document).applyOps as Document[] | undefined)?.map((o) => [o.op, o.ns])])).toEqual([
      ['c', 'admin.$cmd', [['i', 'db.c'], ['i', 'db.c'], ['d', 'db.c']]],
    ]);
  });

  it('a retryable write (not a transaction) writes its lsid, txnNumber and stmtId on the oplog entry, not on the event', () => {
    const { catalog, log } = setup();
    const coll = catalog.create('db', 'c');
    const cursor = stream(catalog, log, { startAtOperationTime: new Timestamp({ t: 0, i: 0 }) });
    catalog.writes.run(() => coll.insert({ _id: 1 }, 0), { session: { lsid, txnNumber: 9n, inTransaction: false } });
    const [event] = cursor.nextBatch(undefined);
    expect([event!.operationType, event!.lsid, event!.txnNumber]).toEqual(['insert', undefined, undefined]);
    const entry = [...log.oplogEntries().after(undefined)].find((e) => e.op === 'i')!;
    expect([entry.lsid, entry.txnNumber, entry.stmtId, entry.ns, entry.o]).toEqual([lsid, Long.fromNumber(9), 0, 'db.c', { _id: 1 }]);
  });
});

describe('resume tokens and the bound', () => {
  it('tokens compare in event order; a high-water mark sorts before the events of its time', () => {
    const ts = new Timestamp({ t: 10, i: 2 });
    const a = resumeToken({ clusterTime: ts, txnOpIndex: 0 })._data as string;
    const b = resumeToken({ clusterTime: ts, txnOpIndex: 1 })._data as string;
    const hwm = highWaterMarkToken(ts)._data as string;
    const later = highWaterMarkToken(new Timestamp({ t: 10, i: 3 }))._data as string;
    expect([hwm < a, a < b, b < later]).toEqual([true, true, true]);
    expect(decodeResumeToken({ _data: b })).toEqual({ clusterTime: ts, txnOpIndex: 1, fromInvalidate: false, hasUuid: false });
    expect(decodeResumeToken({ _data: hwm }).txnOpIndex).toBe(-1);
    expect(() => decodeResumeToken({ _data: 'zz' })).toThrow('resume token string was not a valid hex string');
    expect(() => decodeResumeToken({})).toThrow(/^Bad resume token: _data of missing or of wrong type/);
  });

  it('a stream behind the kept history fails with 286', () => {
    const { catalog, log } = setup(2);
    const coll = catalog.create('db', 'c');
    const cursor = stream(catalog, log, { startAtOperationTime: new Timestamp({ t: 0, i: 0 }) });
    for (let i = 0; i < 5; i++) coll.insert({ _id: i }, 0);
    expect(() => cursor.nextBatch(undefined)).toThrow('Resume of change stream was not possible, as the resume point may no longer be in the oplog.');
  });

  it('the bound keeps exactly the newest events across the cuts of the dropped front (a small log and past 1,024 dropped)', () => {
    for (const maxEvents of [3, 1500]) {
      const { catalog, log } = setup(maxEvents);
      const coll = catalog.create('db', 'c');
      const reader = stream(catalog, log, { startAtOperationTime: new Timestamp({ t: 0, i: 0 }) });
      reader.nextBatch(undefined);
      const total = 5000;
      for (let i = 0; i < total; i++) coll.insert({ _id: i }, 0);
      // The create event and `total` inserts: the kept ones are the last `maxEvents` inserts.
      const kept = [...log.after(0)];
      expect(kept.map((e) => e.documentKey?._id)).toEqual(Array.from({ length: maxEvents }, (_, k) => total - maxEvents + k));
      expect(log.lastSeq).toBe(total + 1);
      expect(log.last?.documentKey).toEqual({ _id: total - 1 });
      expect(log.entryAfter(log.lastSeq - 2)?.documentKey).toEqual({ _id: total - 2 });
      expect(log.lostAfter(log.lastSeq - maxEvents)).toBe(false);
      expect(log.lostAfter(log.lastSeq - maxEvents - 1)).toBe(true);
      const newest = log.last!;
      expect(log.seqAt(newest)).toEqual({ seq: newest.seq, lost: false });
      expect(log.entryAt(kept[0]!)).toBe(kept[0]);
      // A reader that fell behind has lost its history; one that starts at the oldest kept event reads them all.
      expect(() => reader.nextBatch(undefined)).toThrow('Resume of change stream was not possible');
      const resumed = stream(catalog, log, { resumeAfter: resumeToken(kept[0]!, false, kept[0]!.uuid, kept[0]!.documentKey) });
      expect(resumed.nextBatch(undefined).map((e) => (e.documentKey as Document)._id)).toEqual(kept.slice(1).map((e) => e.documentKey?._id));
    }
  });

  it('waiting readers are woken once, after the turn of the commits (not inside them), however many events', async () => {
    const { catalog, log } = setup();
    const coll = catalog.create('db', 'c');
    const woken: number[] = [];
    const stop = log.onCommit(() => woken.push(log.lastSeq));
    coll.insert({ _id: 1 }, 0);
    coll.insert({ _id: 2 }, 0);
    await Promise.resolve();
    // Not in the commit, nor in the microtasks after it (a retryable write's reply goes out there).
    expect(woken).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toEqual([log.lastSeq]);
    stop();
    coll.insert({ _id: 3 }, 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toHaveLength(1);
    expect(log.waiting).toBe(0);
  });
});

describe('update descriptions', () => {
  it.each([
    [{ _id: 1, a: 1, b: { c: 1 } }, { _id: 1, b: { c: 2 } }, { updatedFields: { 'b.c': 2 }, removedFields: ['a'], truncatedArrays: [], disambiguatedPaths: {} }],
    [{ _id: 1, arr: [1, 2, 3] }, { _id: 1, arr: [1, 2] }, { updatedFields: {}, removedFields: [], truncatedArrays: [{ field: 'arr', newSize: 2 }], disambiguatedPaths: {} }],
    [{ _id: 1, arr: [1] }, { _id: 1, arr: [1, 5] }, { updatedFields: { 'arr.1': 5 }, removedFields: [], truncatedArrays: [], disambiguatedPaths: { 'arr.1': ['arr', 1] } }],
    [{ _id: 1, arr: [1, 2] }, { _id: 1, arr: [3, 4] }, { updatedFields: { arr: [3, 4] }, removedFields: [], truncatedArrays: [], disambiguatedPaths: {} }],
    [{ _id: 1, a: [{ '1': 1 }] }, { _id: 1, a: [{ '1': 2 }] }, { updatedFields: { 'a.0.1': 2 }, removedFields: [], truncatedArrays: [], disambiguatedPaths: { 'a.0.1': ['a', 0, '1'] } }],
  ])('%j → %j', (before, after, expected) => {
    expect(describeChange(before, after)).toEqual(expected);
  });
});
