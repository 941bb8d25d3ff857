/**
 * The server's clock: the only place that reads the system time (ARCHITECTURE.md, convention 6).
 * Everything that needs "now" (TTL, cursor timeouts, `_ts`, `$currentDate`, `localTime`) asks a
 * `Clock`. The manual clock moves only when told, for tests (`--clock manual`).
 */

/** How the clock moves: with the system time (plus an offset), or only when advanced. */
export const ClockModes = ['system', 'manual'] as const;
/** A clock mode name. */
export type ClockMode = (typeof ClockModes)[number];

/** The server's notion of now, in milliseconds since the Unix epoch. */
export class Clock {
  readonly mode: ClockMode;
  private offsetMs = 0;
  private manualNowMs: number;
  private readonly listeners = new Set<() => void>();

  /** A clock; a manual one starts at the system time of its creation unless `startMs` is given. */
  constructor(mode: ClockMode = 'system', startMs?: number) {
    this.mode = mode;
    this.manualNowMs = startMs ?? Date.now();
  }

  /** Now, in ms since the epoch. */
  now(): number {
    return this.mode === 'manual' ? this.manualNowMs : Date.now() + this.offsetMs;
  }

  /** Now as a Date. */
  nowDate(): Date {
    return new Date(this.now());
  }

  /** Moves the clock forward by `ms` (an offset on the system clock); listeners are told. */
  advance(ms: number): number {
    if (!Number.isFinite(ms)) throw new RangeError('clock advance must be a finite number of ms');
    if (this.mode === 'manual') this.manualNowMs += ms;
    else this.offsetMs += ms;
    for (const listener of this.listeners) listener();
    return this.now();
  }

  /** The offset added to the system time (0 on a manual clock). */
  get offsetMillis(): number {
    return this.mode === 'manual' ? 0 : this.offsetMs;
  }

  /** Calls `listener` whenever the clock is advanced; returns a function that unsubscribes. */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Elapsed-time readings (ms, monotonic, arbitrary origin) for measuring how long work takes:
 * the reaper's slices and delete budgets. Never a date; "now" always comes from a `Clock`.
 */
export function monotonicMs(): number {
  return performance.now();
}
