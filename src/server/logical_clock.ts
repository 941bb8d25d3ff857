/**
 * The logical clock (WRITE_PATH.md): cluster time as a BSON `Timestamp(secs, inc)`. Every commit
 * takes a fresh time from `tick()`; replies report `now()` as `operationTime`/`$clusterTime` on
 * the replica-set presentation; a client's `$clusterTime` moves it forward (`advanceTo`). The
 * seconds follow the injected wall clock (`ttl/clock.ts`) and never go back; within one second
 * the increment counts up.
 */
import { Timestamp } from '../bson/library.js';
import type { Clock } from '../ttl/clock.js';

/** Cluster time, monotonic, derived from the server's wall clock. */
export class LogicalClock {
  private secs = 0;
  private inc = 0;
  private current: Timestamp;

  /** A logical clock reading seconds from `wall`; it starts at (wall seconds, 0). */
  constructor(private readonly wall: Clock) {
    this.secs = Math.floor(wall.now() / 1000);
    this.current = new Timestamp({ t: this.secs, i: 0 });
  }

  /** The latest cluster time handed out (or gossiped in); never moves it. */
  now(): Timestamp {
    return this.current;
  }

  /** A new cluster time for a commit: strictly greater than every earlier one. */
  tick(): Timestamp {
    const wallSecs = Math.floor(this.wall.now() / 1000);
    if (wallSecs > this.secs) {
      this.secs = wallSecs;
      this.inc = 1;
    } else {
      this.inc += 1;
      if (this.inc > 0xffffffff) {
        this.secs += 1;
        this.inc = 1;
      }
    }
    this.current = new Timestamp({ t: this.secs, i: this.inc });
    return this.current;
  }

  /** Moves the clock up to `ts` when it is ahead (a client's gossiped `$clusterTime`). */
  advanceTo(ts: Timestamp): void {
    const t = ts.high >>> 0;
    const i = ts.low >>> 0;
    if (t > this.secs || (t === this.secs && i > this.inc)) {
      this.secs = t;
      this.inc = i;
      this.current = new Timestamp({ t, i });
    }
  }
}
