/**
 * The reaper: the one background TTL monitor of a server, shaped like mongod's `TTLMonitor`
 * (`src/mongo/db/ttl/ttl.cpp`). It sleeps `ttlMonitorSleepSecs`, then (if `ttlMonitorEnabled`)
 * runs a pass. A pass is a series of sub-passes; a sub-pass visits every TTL job round-robin,
 * each visit deleting up to `ttlIndexDeleteTargetDocs` documents or for up to
 * `ttlIndexDeleteTargetTimeMS`, revisiting jobs with more to delete until
 * `ttlMonitorSubPassTargetSecs`; the pass ends when a sub-pass leaves nothing due.
 *
 * Work runs in slices of about `SLICE_BUDGET_MS` that yield to the event loop, so clients keep
 * their latency while a million documents expire. While no client is being served, a slice
 * follows the previous one at once (`setImmediate`); while clients are (some requests were
 * answered during the last yield), the thread is left idle for `PACE_MS` between slices. One
 * pass runs at a time: a pass asked for while another runs waits for it and then runs its own.
 */
import type { Logger } from '../logger.js';
import { monotonicMs, type Clock } from './clock.js';
import type { RemoveRecords, TtlJob } from './jobs.js';
import type { TtlSettings } from './parameters.js';

/** The counters reported as `serverStatus().metrics.ttl`. */
export interface TtlCounters {
  deletedDocuments: number;
  passes: number;
  subPasses: number;
  invalidTTLIndexSkips: number;
  /** Versions purged from versioned collections (set once the first one is purged). */
  deletedVersions?: number;
}

/** What one pass did. */
export interface PassResult {
  /** Documents the pass deleted. */
  deleted: number;
  /** Sub-passes it took. */
  subPasses: number;
  /** Versions it purged from versioned collections (set once it purged one). */
  deletedVersions?: number;
}

/** What the reaper needs from the engine. */
export interface ReaperOptions {
  readonly settings: TtlSettings;
  readonly clock: Clock;
  readonly counters: TtlCounters;
  readonly logger: Logger;
  /** The TTL jobs to visit, re-read at every sub-pass (new indexes join a running pass). */
  jobs(): TtlJob[];
  /** Removes expired records on the reaper's behalf, those still held; returns how many. */
  remove: RemoveRecords;
  /** Client requests received so far (they pace the reaper); none when not given. */
  requestsReceived?: () => number;
  /**
   * How many deletions the reaper may make now; unlimited when not given. In Cosmos DB mode TTL
   * deletions use only the request units clients left spare: at 0 the visit ends, and what is
   * due waits (invisible already) for a later pass.
   */
  deleteAllowance?: (() => number) | undefined;
}

/** Longest stretch of work (ms) before the reaper yields to the event loop. */
export const SLICE_BUDGET_MS = 0.3;
/** Schedule entries handled between two looks at the clock. */
const SLICE_ENTRIES = 64;
/**
 * How long (ms) the thread is left idle between two slices while clients are being served. A
 * thread that goes straight back to work after answering delays its clients' next requests on a
 * machine with few cores. On the 2-core development machine, during a pass of 1,000,000
 * deletions (the TTL protocol of `npm run bench`), a findOne's p99 was 2.2-3.1 times its idle
 * p99 with 1 ms pauses (1.3-1.5M deletions/s) and 1.1-2.6 times with 2 ms pauses (0.67-0.78M
 * deletions/s). setTimeout counts whole milliseconds here: 1.5 ms behaved as 1 ms.
 */
const PACE_MS = 2;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves on the next turn of the event loop, after pending I/O. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Resolves after `ms` milliseconds, the event loop idle meanwhile but for I/O. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The TTL monitor of one server. */
export class Reaper {
  private readonly options: ReaperOptions;
  private timer: NodeJS.Timeout | null = null;
  private sleepStartedMs = 0;
  private started = false;
  private stopping = false;
  private current: Promise<PassResult> | null = null;
  private sliceStartedMs = 0;
  /** True when requests were answered during the last yield: the next one is a pause. */
  private clientsActive = false;

  /** A reaper over the engine's jobs. */
  constructor(options: ReaperOptions) {
    this.options = options;
  }

  /** Starts sleeping towards the first pass. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.sleep();
  }

  /** Stops the timer and waits for a running pass to give up at its next slice. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.current) await this.current.catch(() => undefined);
  }

  /** `ttlMonitorSleepSecs` changed: the current sleep ends at its start + the new value. */
  sleepSecsChanged(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.arm(this.sleepStartedMs + this.options.settings.sleepSecs * 1000 - monotonicMs());
  }

  /** Runs one pass now (after the one in progress, if any). */
  async runPass(): Promise<PassResult> {
    while (this.current) await this.current.catch(() => undefined);
    const pass = this.pass();
    this.current = pass;
    try {
      return await pass;
    } finally {
      if (this.current === pass) this.current = null;
    }
  }

  /** True while a pass runs. */
  get passInProgress(): boolean {
    return this.current !== null;
  }

  private sleep(): void {
    this.sleepStartedMs = monotonicMs();
    this.arm(this.options.settings.sleepSecs * 1000);
  }

  private arm(delayMs: number): void {
    const timer = setTimeout(() => void this.wake(), Math.max(0, Math.min(delayMs, MAX_TIMER_MS)));
    timer.unref();
    this.timer = timer;
  }

  private async wake(): Promise<void> {
    this.timer = null;
    if (this.stopping) return;
    const deadline = this.sleepStartedMs + this.options.settings.sleepSecs * 1000;
    const now = monotonicMs();
    if (now + 1 < deadline) {
      this.arm(deadline - now); // a sleep longer than one timer allows
      return;
    }
    // A disabled monitor wakes up but runs (and counts) no pass, as mongod's does.
    if (this.options.settings.enabled) {
      try {
        await this.runPass();
      } catch (err) {
        this.options.logger.error({ err }, 'TTL pass failed');
      }
    }
    if (!this.stopping && this.started) this.sleep();
  }

  private async pass(): Promise<PassResult> {
    const { clock, counters } = this.options;
    const at = clock.now();
    const result: PassResult = { deleted: 0, subPasses: 0 };
    this.sliceStartedMs = monotonicMs();
    this.clientsActive = false;
    try {
      let more = true;
      while (more && !this.stopping) more = await this.subPass(at, result);
    } finally {
      counters.passes++;
    }
    if (result.deleted > 0) this.options.logger.debug({ deleted: result.deleted, subPasses: result.subPasses }, 'TTL pass');
    return result;
  }

  /** One round-robin over the jobs; true when some job still has due documents. */
  private async subPass(at: number, result: PassResult): Promise<boolean> {
    const { settings, counters } = this.options;
    const started = monotonicMs();
    let work = this.options.jobs();
    try {
      do {
        const more: TtlJob[] = [];
        for (const job of work) {
          if (!job.active || this.stopping) continue;
          if (await this.visit(job, at, result)) more.push(job);
          await this.maybeYield();
        }
        work = more;
      } while (work.length > 0 && !this.stopping && monotonicMs() - started < settings.subPassTargetSecs * 1000);
    } finally {
      counters.subPasses++;
      result.subPasses++;
    }
    return work.length > 0 && !this.stopping;
  }

  /** Deletes what is due through one job within its budget; true when more is due. */
  private async visit(job: TtlJob, at: number, result: PassResult): Promise<boolean> {
    const { settings, counters, remove } = this.options;
    if (job.kind === 'unusable') {
      counters.invalidTTLIndexSkips++;
      return false;
    }
    const maxDocs = settings.deleteTargetDocs > 0 ? settings.deleteTargetDocs : Infinity;
    const maxMs = settings.deleteTargetTimeMs > 0 ? settings.deleteTargetTimeMs : Infinity;
    const started = monotonicMs();
    let deleted = 0;
    for (;;) {
      const allowed = this.options.deleteAllowance?.() ?? Infinity;
      if (allowed <= 0) return false;
      const step = job.reapSome(at, Math.min(SLICE_ENTRIES, maxDocs - deleted, allowed), remove);
      deleted += step.deleted;
      counters.deletedDocuments += step.deleted;
      result.deleted += step.deleted;
      if (step.versions) {
        counters.deletedVersions = (counters.deletedVersions ?? 0) + step.versions;
        result.deletedVersions = (result.deletedVersions ?? 0) + step.versions;
      }
      if (step.exhausted) return false;
      if (deleted >= maxDocs || monotonicMs() - started >= maxMs) return true;
      if (await this.maybeYield()) {
        if (!job.active || this.stopping) return false;
      }
    }
  }

  /** Yields to the event loop when the current slice has used its budget; true when it did. */
  private async maybeYield(): Promise<boolean> {
    if (monotonicMs() - this.sliceStartedMs < SLICE_BUDGET_MS) return false;
    const received = this.options.requestsReceived;
    const before = received?.() ?? 0;
    await (this.clientsActive ? pause(PACE_MS) : yieldToEventLoop());
    this.clientsActive = (received?.() ?? 0) !== before;
    this.sliceStartedMs = monotonicMs();
    return true;
  }
}
