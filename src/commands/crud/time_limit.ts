/**
 * A command's `maxTimeMS` budget over the life of its cursor, as mongod keeps it: the time spent
 * working (the first batch, then each getMore) counts, the time a cursor waits between batches
 * does not (`ClientCursor`'s leftover time). The pipeline checks it between documents against
 * the server clock: past the budget it fails with 50 MaxTimeMSExpired.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';

/** The running budget of one command (and its cursor). */
export class TimeLimit {
  private spentMs = 0;
  private startedMs: number | null = null;

  /** A budget of `limitMs` (> 0) measured on `now`. */
  constructor(
    readonly limitMs: number,
    private readonly now: () => number,
  ) {}

  /** Throws 50 once the time worked exceeds the budget. */
  check(): void {
    const working = this.startedMs === null ? 0 : this.now() - this.startedMs;
    if (this.spentMs + working > this.limitMs) throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
  }

  /** `source` with every document pulled counted as work, checked before it is pulled. */
  *timed(source: Iterable<Document>): Generator<Document> {
    const it = source[Symbol.iterator]();
    for (;;) {
      this.startedMs = this.now();
      let next: IteratorResult<Document>;
      try {
        this.check();
        next = it.next();
      } finally {
        this.spentMs += this.now() - this.startedMs;
        this.startedMs = null;
      }
      if (next.done) return;
      yield next.value;
    }
  }

  /**
   * `source` checked before each of its documents is handed on (a pipeline's input, the records a
   * count or distinct reads). Outside `timed` (a command without a cursor) the work is timed from
   * the first document pulled.
   */
  *checked<T>(source: Iterable<T>): Generator<T> {
    const own = this.startedMs === null;
    if (own) this.startedMs = this.now();
    try {
      for (const item of source) {
        this.check();
        yield item;
      }
    } finally {
      if (own && this.startedMs !== null) {
        this.spentMs += this.now() - this.startedMs;
        this.startedMs = null;
      }
    }
  }
}
