import { afterEach, describe, expect, test } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import type { Collection, StoredDocument } from '../../../src/storage/collection.js';
import { Clock } from '../../../src/ttl/clock.js';
import type { RemoveRecord, ReapStep, TtlJob, TtlJobKind } from '../../../src/ttl/jobs.js';
import { DEFAULT_TTL_SETTINGS, type TtlSettings } from '../../../src/ttl/parameters.js';
import { Reaper, type TtlCounters } from '../../../src/ttl/reaper.js';

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
  reapSome(nowMs: number, maxEntries: number, remove: RemoveRecord): ReapStep {
    this.calls.push({ nowMs, maxEntries });
    let deleted = 0;
    while (deleted < maxEntries && this.due > 0) {
      this.due--;
      if (remove(this.coll, {} as StoredDocument)) deleted++;
    }
    return { deleted, exhausted: this.due === 0 };
  }
}

function makeReaper(jobs: TtlJob[], settings: Partial<TtlSettings> = {}) {
  const counters: TtlCounters = { deletedDocuments: 0, passes: 0, subPasses: 0, invalidTTLIndexSkips: 0 };
  const clock = new Clock('manual', 5_000);
  const reaper = new Reaper({
    settings: { ...DEFAULT_TTL_SETTINGS, ...settings },
    clock,
    counters,
    logger: createLogger('silent'),
    jobs: () => jobs.filter((j) => j.active),
    remove: () => true,
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
    expect(a.calls.every((c) => c.maxEntries <= 256)).toBe(true);
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
