/**
 * Oplog entries in mongod's shape and field order (a plain insert, a retryable write's update),
 * and the bounded, ordered log they are kept in.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Long, Timestamp, UUID } from '../../../src/bson/library.js';
import { Oplog, oplogEntry } from '../../../src/storage/oplog.js';

const ts = (i: number) => new Timestamp({ t: 1800000000, i });

describe('oplog entries', () => {
  it('an insert: op, ns, ui, o, o2, ts, t, v, wall', () => {
    const ui = new UUID();
    const entry = oplogEntry({ op: 'i', ns: 'db.c', ui, o: { _id: 1, a: 2 }, o2: { _id: 1 } }, ts(1), 1, 1800000000000);
    expect(Object.keys(entry)).toEqual(['op', 'ns', 'ui', 'o', 'o2', 'ts', 't', 'v', 'wall']);
    expect(entry).toEqual({ op: 'i', ns: 'db.c', ui, o: { _id: 1, a: 2 }, o2: { _id: 1 }, ts: ts(1), t: Long.fromNumber(1), v: Long.fromNumber(2), wall: new Date(1800000000000) });
  });

  it('a retryable write carries lsid, txnNumber, stmtId and prevOpTime', () => {
    const lsid = { id: new Binary(Buffer.alloc(16), 4), uid: new Binary(Buffer.alloc(32), 0) };
    const entry = oplogEntry({ op: 'u', ns: 'db.c', o: { $v: 2, diff: { u: { a: 3 } } }, o2: { _id: 1 }, retryable: { lsid, txnNumber: 5n, stmtId: 0 } }, ts(2), 1, 0);
    expect(Object.keys(entry)).toEqual(['lsid', 'txnNumber', 'op', 'ns', 'o', 'o2', 'stmtId', 'ts', 't', 'v', 'wall', 'prevOpTime']);
    expect([entry.txnNumber, entry.stmtId, entry.prevOpTime]).toEqual([Long.fromNumber(5), 0, { ts: new Timestamp({ t: 0, i: 0 }), t: Long.fromNumber(-1) }]);
  });
});

describe('the log', () => {
  it('keeps commit order, reads after a time, drops the oldest past its bound', () => {
    const log = new Oplog(2);
    for (const i of [1, 2, 3]) log.append(oplogEntry({ op: 'n', ns: '', o: { msg: i } }, ts(i), 1, 0));
    expect(log.size).toBe(2);
    expect([...log.after(undefined)].map((e) => e.o)).toEqual([{ msg: 2 }, { msg: 3 }]);
    expect([...log.after(ts(2))].map((e) => e.o)).toEqual([{ msg: 3 }]);
    expect(() => log.append(oplogEntry({ op: 'n', ns: '', o: {} }, ts(2), 1, 0))).toThrow('oplog entries must be appended in commit order');
    // The entries of one commit (an insert batch) share its time.
    log.append(oplogEntry({ op: 'n', ns: '', o: { msg: 4 } }, ts(3), 1, 0));
    expect([...log.after(ts(2))].map((e) => e.o)).toEqual([{ msg: 3 }, { msg: 4 }]);
  });

  it('keeps exactly the newest entries, by position in the whole history, across the cuts of the dropped front', () => {
    for (const bound of [3, 1500]) {
      const log = new Oplog(bound);
      const total = 5000;
      for (let i = 1; i <= total; i++) log.append(oplogEntry({ op: 'n', ns: '', o: { msg: i } }, ts(i), 1, 0));
      expect([log.size, log.dropped, log.end]).toEqual([bound, total - bound, total]);
      expect(log.at(log.dropped - 1)).toBeUndefined();
      expect(log.at(log.dropped)?.o).toEqual({ msg: total - bound + 1 });
      expect(log.at(total - 1)?.o).toEqual({ msg: total });
      expect(log.at(total)).toBeUndefined();
      expect(log.all.map((e) => (e.o as { msg: number }).msg)).toEqual(Array.from({ length: bound }, (_, k) => total - bound + 1 + k));
      expect(() => log.append(oplogEntry({ op: 'n', ns: '', o: {} }, ts(total - 1), 1, 0))).toThrow('oplog entries must be appended in commit order');
    }
  });
});
