import { afterEach, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import type { Collection } from '../../../src/storage/collection.js';
import type { StoredDocument } from '../../../src/storage/record.js';
import { Clock } from '../../../src/ttl/clock.js';
import type { RemoveRecords, ReapStep, TtlJob, TtlJobKind } from '../../../src/ttl/jobs.js';
import { DEFAULT_TTL_SETTINGS, type TtlSettings } from '../../../src/ttl/parameters.js';
import { Reaper, type PassResult, type TtlCounters } from '../../../src/ttl/reaper.js';

/** A job with `due` documents due at every instant; each entry popped deletes one. */
class FakeJob implements TtlJob {
  readonly coll = {} as Collection;
  readonly signature = 'fake';
  active = true;
  calls: Array<{ nowMs: number; maxEntries: number }> = [];
  constructor(
    readonly kind: TtlJobKind,
    readonly indexName: string,
    public due: number,
  ) {}
  track(): void {}
  clear(): void {}
  reapSome(nowMs: number, maxEntries: number, remove: RemoveRecords): ReapStep {
    this.calls.push({ nowMs, maxEntries });
    const n = Math.min(maxEntries, this.due);
    this.due -= n;
    const deleted = remove(this.coll, Array.from({ length: n }, () => ({}) as StoredDocument), n);
    return { deleted, exhausted: this.due === 0 };
  }
}

function makeReaper(jobs: TtlJob[], settings: Partial<TtlSettings> = {}, requestsReceived?: () => number) {
  const counters: TtlCounters = { deletedDocuments: 0, passes: 0, subPasses: 0, invalidTTLIndexSkips: 0 };
  const clock = new Clock('manual', 5_000);
  const reaper = new Reaper({
    settings: { ...DEFAULT_TTL_SETTINGS, ...settings },
    clock,
    counters,
    logger: createLogger('silent'),
    jobs: () => jobs.filter((j) => j.active),
    remove: (_coll, _recs, count) => count,
    requestsReceived,
  });
  return { reaper, counters, clock };
}

const reapers: Reaper[] = [];
afterEach(async () => {
  for (const r of reapers.splice(0)) await r.stop();
});

describe('Reaper passes', () => {
  test('a pass deletes everything due across jobs and counts one pass and one sub-pass', async () => {
    const a = new FakeJob('cosmos', 'a', 1000);
    const b = new FakeJob('native', 'b', 10);
    const { reaper, counters } = makeReaper([a, b]);
    reapers.push(reaper);
    expect(await reaper.runPass()).toEqual({ deleted: 1010, subPasses: 1 });
    expect(counters).toEqual({ deletedDocuments: 1010, passes: 1, subPasses: 1, invalidTTLIndexSkips: 0 });
    expect(a.calls.every((c) => c.nowMs === 5_000)).toBe(true); // one "now" for the whole pass
  });

  test('ttlIndexDeleteTargetDocs bounds a visit; with ttlMonitorSubPassTargetSecs 0 each round is a sub-pass', async () => {
    const a = new FakeJob('cosmos', 'a', 25);
    const { reaper, counters } = makeReaper([a], { deleteTargetDocs: 10, subPassTargetSecs: 0 });
    reapers.push(reaper);
    expect(await reaper.runPass()).toEqual({ deleted: 25, subPasses: 3 });
    expect(a.calls.map((c) => c.maxEntries)).toEqual([10, 10, 10]);
    expect(counters.subPasses).toBe(3);
  });

  test('unusable (special) TTL indexes are skipped and counted once per visit', async () => {
    const special = new FakeJob('unusable', 'h', 0);
    const { reaper, counters } = makeReaper([special, new FakeJob('native', 'n', 3)]);
    reapers.push(reaper);
    await reaper.runPass();
    await reaper.runPass();
    expect(counters).toEqual({ deletedDocuments: 3, passes: 2, subPasses: 2, invalidTTLIndexSkips: 2 });
    expect(special.calls).toEqual([]);
  });

  test('one pass at a time: a pass asked for during another runs after it', async () => {
    const a = new FakeJob('cosmos', 'a', 200_000);
    const { reaper } = makeReaper([a]);
    reapers.push(reaper);
    const first = reaper.runPass();
    expect(reaper.passInProgress).toBe(true);
    const second = reaper.runPass();
    expect(await first).toEqual({ deleted: 200_000, subPasses: 1 });
    expect(await second).toEqual({ deleted: 0, subPasses: 1 });
    expect(reaper.passInProgress).toBe(false);
  });

  test('a long pass yields to the event loop between slices', async () => {
    const a = new FakeJob('cosmos', 'a', 3_000_000);
    const { reaper } = makeReaper([a]);
    reapers.push(reaper);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    await reaper.runPass();
    clearInterval(ticker);
    expect(a.due).toBe(0);
    expect(ticks).toBeGreaterThan(0);
    expect(a.calls.every((c) => c.maxEntries <= 64)).toBe(true);
  });

  test('stop() ends a running pass at its next slice; an inactive job is left at once', async () => {
    const a = new FakeJob('cosmos', 'a', 50_000_000);
    const { reaper } = makeReaper([a]);
    const pass = reaper.runPass();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reaper.stop();
    const result = await pass;
    expect(result.deleted).toBeGreaterThan(0);
    expect(result.deleted).toBeLessThan(50_000_000);
    const b = new FakeJob('native', 'b', 50_000_000);
    const other = makeReaper([b]);
    reapers.push(other.reaper);
    const running = other.reaper.runPass();
    await new Promise((resolve) => setTimeout(resolve, 20));
    b.active = false;
    expect((await running).deleted).toBeLessThan(50_000_000);
  });
});

/** Resolves after `turns` turns of the event loop. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('Reaper pacing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('while no request arrives, each slice follows the last at once (no timer)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const a = new FakeJob('cosmos', 'a', 1_000_000);
    const { reaper } = makeReaper([a], {}, () => 7);
    reapers.push(reaper);
    let result: PassResult | null = null;
    const pass = reaper.runPass().then((r) => (result = r));
    // Timers never fire here: a pause would leave the pass waiting.
    for (let i = 0; i < 5_000 && result === null; i++) await turns(1);
    expect(result).toEqual({ deleted: 1_000_000, subPasses: 1 });
    expect(vi.getTimerCount()).toBe(0);
    await pass;
  });

  test('while requests arrive, the thread is left idle between slices; full speed again once they stop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    let requests = 0;
    let clientOn = true;
    const client = () => {
      requests++; // a request on every turn of the event loop
      if (clientOn) setImmediate(client);
    };
    setImmediate(client);
    const a = new FakeJob('cosmos', 'a', 3_000_000);
    const { reaper } = makeReaper([a], {}, () => requests);
    reapers.push(reaper);
    let done = false;
    const pass = reaper.runPass().then((result) => {
      done = true;
      return result;
    });
    await turns(50);
    // Requests came during the first yield: the pass now waits on a 2 ms pause.
    expect(done).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    const dueAtPause = a.due;
    expect(dueAtPause).toBeLessThan(3_000_000);
    await turns(50);
    expect(a.due).toBe(dueAtPause);
    await vi.advanceTimersByTimeAsync(1);
    expect(a.due).toBe(dueAtPause); // half-way through the pause
    await vi.advanceTimersByTimeAsync(1);
    expect(a.due).toBeLessThan(dueAtPause); // one more slice, then the next pause
    expect(vi.getTimerCount()).toBe(1);
    clientOn = false;
    while (!done && vi.getTimerCount() > 0) await vi.advanceTimersByTimeAsync(1);
    expect(await pass).toEqual({ deleted: 3_000_000, subPasses: 1 });
  });
});
