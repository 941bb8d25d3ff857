import { describe, expect, test } from 'vitest';
import { DEFAULT_VERSION_LIMITS, versionExpiryMs, type VersionLimits } from '../../../src/storage/versioned/limits.js';
import { VersionedRow, readableCount } from '../../../src/storage/versioned/row.js';

const V = 1468944000000; // 2016-07-20 00:00 UTC+8 (the seed's version)
const T = 1469030400000; // 2016-07-21 00:00 UTC+8
const DAY = 86_400_000;

function limits(partial: Partial<VersionLimits>): VersionLimits {
  return { ...DEFAULT_VERSION_LIMITS, ...partial };
}

describe('versionExpiryMs', () => {
  test('never with timeToLive -1', () => {
    expect(versionExpiryMs(V, -1)).toBe(Infinity);
  });

  test("the seed's example: version 1468944000000 with TTL 86400 is readable at 2016-07-21 00:00 UTC+8 and not 1 ms later", () => {
    expect(versionExpiryMs(V, 86400)).toBe(T + 1);
  });
});

describe('VersionedRow writes', () => {
  test('versions are kept newest first; a second write at the same timestamp replaces the value', () => {
    const row = new VersionedRow('k');
    row.put('a', 1, 100);
    row.put('a', 3, 300);
    row.put('a', 2, 200);
    row.put('a', 'two', 200);
    expect(row.versionsOf('a')).toEqual([
      { value: 3, ts: 300 },
      { value: 'two', ts: 200 },
      { value: 1, ts: 100 },
    ]);
    expect(row.versionCount).toBe(3);
  });

  test('deleteColumn removes every version; orderColumns puts named columns first', () => {
    const row = new VersionedRow(1);
    row.put('a', 1, 1);
    row.put('b', 2, 1);
    row.put('b', 3, 2);
    row.put('c', 4, 1);
    expect(row.deleteColumn('b')).toBe(2);
    expect(row.deleteColumn('zz')).toBe(0);
    expect(row.versionCount).toBe(2);
    row.orderColumns(['c']);
    expect([...row.columns()].map(([name]) => name)).toEqual(['c', 'a']);
  });

  test('every change moves the revision', () => {
    const row = new VersionedRow(1);
    const r0 = row.revision;
    row.put('a', 1, 1);
    const r1 = row.revision;
    row.deleteColumn('a');
    expect(r1).toBeGreaterThan(r0);
    expect(row.revision).toBeGreaterThan(r1);
  });
});

describe('VersionedRow views', () => {
  test('each column shows its newest version while it is within timeToLive', () => {
    const row = new VersionedRow(7);
    row.put('a', 'old', V - 1000);
    row.put('a', 'new', V);
    row.put('b', 'gone', V - 1000);
    const view = row.view(limits({ maxVersions: 5, timeToLive: 86400 }), T);
    expect(view.doc).toEqual({ _id: 7, a: 'new' });
    expect(view.visible).toBe(true);
    // The view holds from b's expiry until a's.
    expect([view.fromMs, view.untilMs]).toEqual([T - 1000 + 1, T + 1]);
  });

  test('a row whose versions are all unreadable is invisible; a row without versions is visible', () => {
    const row = new VersionedRow(1);
    row.put('a', 1, V);
    expect(row.view(limits({ timeToLive: 86400 }), T + 1)).toEqual({ doc: { _id: 1 }, visible: false, fromMs: T + 1, untilMs: Infinity });
    expect(new VersionedRow(2).view(DEFAULT_VERSION_LIMITS, T).visible).toBe(true);
  });

  test('a future version is the newest and is read', () => {
    const row = new VersionedRow(1);
    row.put('a', 'now', T);
    row.put('a', 'tomorrow', T + DAY - 1);
    expect(row.view(DEFAULT_VERSION_LIMITS, T).doc).toEqual({ _id: 1, a: 'tomorrow' });
  });

  test('readableCount: the newest maxVersions, cut at the first expired one', () => {
    const versions = [
      { value: 3, ts: T },
      { value: 2, ts: T - DAY },
      { value: 1, ts: T - 2 * DAY },
    ];
    expect(readableCount(versions, limits({ maxVersions: 3 }), T)).toBe(3);
    expect(readableCount(versions, limits({ maxVersions: 2 }), T)).toBe(2);
    expect(readableCount(versions, limits({ maxVersions: 3, timeToLive: 86400 }), T)).toBe(2);
    expect(readableCount(versions, limits({ maxVersions: 3, timeToLive: 86400 }), T + 1)).toBe(1);
  });

  test('readableVersions: timeRange [start, end) first, then maxVersions; empty columns omitted', () => {
    const row = new VersionedRow(1);
    for (let i = 1; i <= 4; i++) row.put('a', i, i * 1000);
    row.put('b', 'b', 500);
    const all = limits({ maxVersions: 4 });
    expect(row.readableVersions(all, 10_000, Infinity, null)).toEqual([
      ['a', [{ value: 4, ts: 4000 }, { value: 3, ts: 3000 }, { value: 2, ts: 2000 }, { value: 1, ts: 1000 }]],
      ['b', [{ value: 'b', ts: 500 }]],
    ]);
    expect(row.readableVersions(all, 10_000, 1, [1000, 4000])).toEqual([['a', [{ value: 3, ts: 3000 }]]]);
    expect(row.readableVersions(all, 10_000, Infinity, [2000, 3000])).toEqual([['a', [{ value: 2, ts: 2000 }]]]);
    // The collection's maxVersions bounds what is readable at all.
    expect(row.readableVersions(limits({ maxVersions: 2 }), 10_000, Infinity, [0, 3500])).toEqual([
      ['a', [{ value: 3, ts: 3000 }]],
      ['b', [{ value: 'b', ts: 500 }]],
    ]);
  });
});

describe('VersionedRow purge', () => {
  test('removes what is unreadable now (over maxVersions, past timeToLive) and empty columns', () => {
    const row = new VersionedRow(1);
    row.put('a', 1, T - 2 * DAY);
    row.put('a', 2, T - 1000);
    row.put('a', 3, T);
    row.put('b', 'x', T - 2 * DAY);
    const l = limits({ maxVersions: 2, timeToLive: 86400 });
    expect(row.purgeDueMs(l, T)).toBe(T); // a holds 3 versions > maxVersions 2: due now
    expect(row.purge(l, T)).toBe(2);
    expect([...row.columns()]).toEqual([['a', [{ value: 3, ts: T }, { value: 2, ts: T - 1000 }]]]);
    expect(row.versionCount).toBe(2);
    expect(row.purgeDueMs(l, T)).toBe(T - 1000 + DAY + 1);
    expect(row.purge(l, T)).toBe(0);
  });

  test('nothing is ever due with timeToLive -1 and no excess version', () => {
    const row = new VersionedRow(1);
    row.put('a', 1, 5);
    expect(row.purgeDueMs(DEFAULT_VERSION_LIMITS, 10)).toBe(Infinity);
  });

  test('copy is independent of the original', () => {
    const row = new VersionedRow(1);
    row.put('a', 1, 5);
    const copy = row.copy();
    row.put('a', 2, 6);
    expect(copy.versionsOf('a')).toEqual([{ value: 1, ts: 5 }]);
    expect(copy.versionCount).toBe(1);
  });
});
