/**
 * A command's `maxTimeMS` budget over the life of its cursor, as mongod keeps it: the time spent
 * working (the first batch, then each getMore) counts, the time a cursor waits between batches
 * does not (`ClientCursor`'s leftover time). The pipeline checks it between documents against
 * the server clock: past the budget it fails with 50 MaxTimeMSExpired.
 *
 * In Cosmos DB mode (rule `requestTimeLimit`) the same checks also stop a request that has run
 * 60 s (src/cosmos/rules/request_time_limit.ts): dispatch notes when each request starts
 * (`noteRequestStart`), and a check past 60 s since then answers Cosmos's 50 ExceededTimeLimit.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { COSMOS_REQUEST_LIMIT_MS, cosmosRequestTimedOut } from '../../cosmos/rules/request_time_limit.js';
import type { ServerServices } from '../../server/services.js';
import type { RevalidatingIterator } from '../../storage/cursors.js';
import type { CommandContext } from '../types.js';

/** When the request each server runs now started (its clock), kept only in Cosmos DB mode with `requestTimeLimit` on. */
const requestStarts = new WeakMap<ServerServices, number>();

/** Dispatch's note that a request starts on `server` at `nowMs` (Cosmos DB's per-request limit counts from it). */
export function noteRequestStart(server: ServerServices, nowMs: number): void {
  requestStarts.set(server, nowMs);
}

/**
 * The time limit of a command on `ctx` with `maxTimeMS` (0: none): mongod's budget, plus Cosmos
 * DB's 60 s per request when the `requestTimeLimit` rule is on; undefined when neither applies.
 */
export function commandTimeLimit(ctx: CommandContext, maxTimeMS: number): TimeLimit | undefined {
  const server = ctx.server;
  const perRequest = server.settings.cosmos?.rules.requestTimeLimit === true;
  if (maxTimeMS <= 0 && !perRequest) return undefined;
  return new TimeLimit(maxTimeMS > 0 ? maxTimeMS : Number.POSITIVE_INFINITY, ctx.now, perRequest ? () => requestStarts.get(server) : undefined);
}

/** The running budget of one command (and its cursor). */
export class TimeLimit {
  private spentMs = 0;
  private startedMs: number | null = null;

  /**
   * A budget of `limitMs` (> 0; Infinity: none) measured on `now`; with `requestStartedMs`, the
   * start of the request running now, also Cosmos DB's 60 s per request.
   */
  constructor(
    readonly limitMs: number,
    private readonly now: () => number,
    private readonly requestStartedMs?: () => number | undefined,
  ) {}

  /** Throws 50 once the time worked exceeds the budget (or the request has run past Cosmos DB's 60 s). */
  check(): void {
    const nowMs = this.startedMs === null && this.requestStartedMs === undefined ? 0 : this.now();
    const working = this.startedMs === null ? 0 : nowMs - this.startedMs;
    if (this.spentMs + working > this.limitMs) throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
    if (this.requestStartedMs !== undefined) {
      const started = this.requestStartedMs();
      if (started !== undefined && nowMs - started > COSMOS_REQUEST_LIMIT_MS) throw cosmosRequestTimedOut();
    }
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

  /** `timed` over a cursor's source, keeping its re-check of a read-ahead document (`stillValid`). */
  timedSource(source: RevalidatingIterator): RevalidatingIterator {
    const timed = this.timed({ [Symbol.iterator]: () => source });
    const out: RevalidatingIterator = { next: () => timed.next() };
    if (source.stillValid) out.stillValid = (doc) => source.stillValid!(doc);
    return out;
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
