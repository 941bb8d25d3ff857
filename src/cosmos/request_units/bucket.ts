/**
 * The provisioned throughput as a token bucket on the server clock: it holds at most one
 * second of request units (`ruPerSecond`), refills continuously at `ruPerSecond`, and is kept in
 * milli-RU integers so that the refill and the waits it announces are exact on the test clock.
 *
 * A request is admitted while the bucket is not in debt (≥ 0); its charge, known only once it
 * ran, is then taken, and may leave the bucket in debt. A request that arrives in debt is
 * throttled, and told to retry after the time the refill takes to pay the debt back: at that
 * instant the bucket is at 0 and the retry is admitted. A write is told instead the time until
 * the bucket holds what its statements not done are expected to cost (at most a full bucket).
 */

/** A token bucket of request units. */
export class RequestUnitBucket {
  /** RU/s: also the refill in milli-RU per ms. */
  readonly ruPerSecond: number;
  private readonly capacityMilli: number;
  private tokensMilli: number;
  private lastMs: number;

  /** A full bucket of `ruPerSecond` at `nowMs`. */
  constructor(ruPerSecond: number, nowMs: number) {
    this.ruPerSecond = ruPerSecond;
    this.capacityMilli = ruPerSecond * 1000;
    this.tokensMilli = this.capacityMilli;
    this.lastMs = nowMs;
  }

  private refill(nowMs: number): void {
    const elapsed = Math.max(0, Math.floor(nowMs) - this.lastMs);
    if (elapsed > 0) this.tokensMilli = Math.min(this.capacityMilli, this.tokensMilli + elapsed * this.ruPerSecond);
    // A clock moved back (setting an offset) restarts the refill from there.
    this.lastMs = Math.floor(nowMs);
  }

  /** The request units available at `nowMs` (negative: in debt). */
  available(nowMs: number): number {
    this.refill(nowMs);
    return this.tokensMilli / 1000;
  }

  /** 0 when a request may run at `nowMs`; otherwise the ms until it may. */
  retryAfterMs(nowMs: number): number {
    this.refill(nowMs);
    return this.tokensMilli >= 0 ? 0 : Math.ceil(-this.tokensMilli / this.ruPerSecond);
  }

  /**
   * The ms until the bucket holds `ru` (at most a full bucket: a larger need waits for that)
   * at `nowMs`; 0 when it does now.
   */
  msUntilHolding(ru: number, nowMs: number): number {
    this.refill(nowMs);
    const need = Math.min(this.capacityMilli, Math.round(ru * 1000)) - this.tokensMilli;
    return need <= 0 ? 0 : Math.ceil(need / this.ruPerSecond);
  }

  /** Takes `ru` (rounded to the milli-RU) at `nowMs`. */
  spend(ru: number, nowMs: number): void {
    this.refill(nowMs);
    this.tokensMilli -= Math.round(ru * 1000);
  }
}
