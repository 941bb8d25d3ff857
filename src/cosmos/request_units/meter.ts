/**
 * Request units in Cosmos DB mode (`docs/cosmos_request_units.md`): one `RequestUnits` per
 * server, which dispatch hands every request to (`meterRequest`, the one hook). It
 *
 * - refuses a request the `cosmosThrottle` fail point matches, or one that arrives while the
 *   provisioned throughput (`ruPerSecond`) is in debt: 16500 with `RetryAfterMs`, in the bulk
 *   form for insert/update/delete (the statements the budget covers run, the others are
 *   `writeErrors` 16500); with server-side retry it waits instead (asynchronously: other
 *   connections go on) and gives up with 50 after 60 s of server clock;
 * - measures what the request did once it ran (documents examined by the query engine, the
 *   documents its reply returns, the documents the write path committed for it), charges it
 *   (`charge.ts`) to the bucket, and keeps the connection's last request statistics for
 *   `getLastRequestStatistics`;
 * - charges TTL deletions to the same bucket and tells the reaper how many it may make now
 *   (only spare request units: none while the bucket is in debt).
 */
import { randomUUID } from 'node:crypto';
import { Double, type Document } from '../../bson/library.js';
import { bsonSize } from '../../bson/encode.js';
import { EncodedDocument } from '../../bson/library.js';
import type { Catalog } from '../../storage/catalog.js';
import { scanTotals } from '../../storage/planner/execute.js';
import { recordSize } from '../../storage/record.js';
import type { WriteEvent, WriteTarget } from '../../storage/write/observers.js';
import { monotonicMs, type Clock } from '../../ttl/clock.js';
import { RequestUnitBucket } from './bucket.js';
import { emptyUsage, requestCharge, writeCharge, type RequestUsage } from './charge.js';
import type { RequestUnitOptions } from '../request_unit_options.js';
import { retryTimeLimitError, SERVER_SIDE_RETRY_LIMIT_MS, throttleError } from './throttle.js';

/** The commands that read or write documents: charged, and throttled when the budget is in debt. */
export const DATA_COMMANDS: ReadonlySet<string> = new Set(['aggregate', 'bulkWrite', 'count', 'delete', 'distinct', 'find', 'findAndModify', 'getMore', 'insert', 'update']);

/** The statement arrays of the write commands that answer in the bulk form. */
const STATEMENTS: Readonly<Record<string, string>> = { insert: 'documents', update: 'updates', delete: 'deletes' };

/** The command that reports the previous request's statistics (never recorded itself). */
export const LAST_REQUEST_STATISTICS = 'getLastRequestStatistics';

/** The statistics of one request, as `getLastRequestStatistics` reports them. */
export interface RequestStatistics {
  readonly commandName: string;
  /** RU, 2 decimals. */
  readonly requestCharge: number;
  readonly durationMs: number;
  readonly activityId: string;
}

/** What the meter needs of its server. */
export interface RequestUnitsOptions {
  readonly clock: Clock;
  readonly catalog: Catalog;
  readonly settings: RequestUnitOptions;
  /** The `cosmosThrottle` fail point's data when it fires for this request. */
  readonly injected?: (command: string, db: string, body: Document) => { readonly retryAfterMs: number } | undefined;
  /** What a throttled request answers instead of 16500, when something else (rule `changeStreamThrottledPage`: a change stream's empty page). */
  readonly throttledAnswer?: (command: string, db: string, body: Document) => Document | undefined;
}

/** What a request answers: a reply document, or a symbol for none (dispatch's CLOSE_CONNECTION). */
export type Answer = Document | symbol;

/** A request to run: the body (possibly with fewer statements) in, the answer (or a promise of one) out. */
export type RunRequest = (body: Document) => Answer | Promise<Answer>;

/** The request units of one server in Cosmos mode. */
export class RequestUnits {
  readonly settings: RequestUnitOptions;
  /** The provisioned throughput; null when unlimited. */
  readonly bucket: RequestUnitBucket | null;
  private readonly clock: Clock;
  private readonly catalog: Catalog;
  private readonly injected: RequestUnitsOptions['injected'];
  private readonly throttledAnswer: RequestUnitsOptions['throttledAnswer'];
  private readonly last = new WeakMap<object, RequestStatistics>();
  /** The usage of the request running now (its writes are added by the observer). */
  private current: RequestUsage | null = null;

  constructor(options: RequestUnitsOptions) {
    this.settings = options.settings;
    this.clock = options.clock;
    this.catalog = options.catalog;
    this.injected = options.injected;
    this.throttledAnswer = options.throttledAnswer;
    this.bucket = options.settings.ruPerSecond === null ? null : new RequestUnitBucket(options.settings.ruPerSecond, options.clock.now());
    options.catalog.writes.observers.add({
      onInserts: (events) => {
        for (const e of events) this.written(e);
      },
      onUpdate: (event) => this.written(event),
      onDelete: (event) => this.written(event),
    });
  }

  /** The statistics of the last request `connection` made (getLastRequestStatistics excluded). */
  lastRequest(connection: object): RequestStatistics | undefined {
    return this.last.get(connection);
  }

  /**
   * How many TTL deletions the reaper may make now: unlimited without a budget, none while it is
   * in debt, otherwise about as many as the spare units pay for (a 1 KB document each).
   */
  ttlDeleteAllowance(): number {
    if (this.bucket === null) return Number.POSITIVE_INFINITY;
    const spare = this.bucket.available(this.clock.now());
    return spare < 0 ? 0 : Math.max(1, Math.ceil(spare / writeCharge({ bytes: 1024, indexes: 1 })));
  }

  private written(event: WriteEvent): void {
    if (event.cause === 'ttl') {
      // Without a budget nothing is paid: the reaper's deletions cost it nothing to count.
      if (this.bucket === null) return;
      const ru = writeCharge({ bytes: recordSize(event.record), indexes: this.indexCount(event.collection) });
      this.bucket.spend(ru, this.clock.now());
      return;
    }
    // Other deletions the storage makes on its own (capped eviction, an expired key holder) are free.
    const current = this.current;
    if (current === null || event.cause !== undefined || event.fromMigrate === true) return;
    current.written.push({ bytes: recordSize(event.record), indexes: this.indexCount(event.collection) });
  }

  private indexCount(target: WriteTarget): number {
    return 1 + (this.catalog.get(target.db, target.name)?.indexes.length ?? 0);
  }

  /**
   * Runs one request under the meter (see the file comment). Synchronous when `run` is and
   * nothing waits.
   */
  meterRequest(connection: object, command: string, db: string, body: Document, run: RunRequest): Answer | Promise<Answer> {
    if (command === LAST_REQUEST_STATISTICS) return run(body);
    const started = monotonicMs();
    const activityId = randomUUID();
    const injected = this.injected?.(command, db, body);
    if (injected !== undefined) {
      // The injection's own wait, whatever the budget (checked when it was configured).
      return this.refuse(connection, command, body, started, activityId, injected.retryAfterMs);
    }
    const bucket = this.bucket;
    if (bucket === null || !DATA_COMMANDS.has(command)) return this.runMetered(connection, command, body, started, activityId, run);
    const field = STATEMENTS[command];
    const statements = field === undefined ? undefined : body[field];
    const expected = field === undefined || !Array.isArray(statements) ? undefined : this.expectedCharges(command, db, body, statements);
    const retryAfterMs = bucket.retryAfterMs(this.clock.now());
    if (retryAfterMs > 0) {
      if (this.settings.serverSideRetry) return this.waitAndRun(connection, command, body, started, activityId, run);
      // A write is told when its statements will fit; any other request, when the debt is paid.
      const wait = expected === undefined ? retryAfterMs : this.msUntilHolding(expected);
      return this.refuse(connection, command, body, started, activityId, wait);
    }
    if (field === undefined || statements === undefined || expected === undefined || this.settings.serverSideRetry) {
      return this.runMetered(connection, command, body, started, activityId, run);
    }
    // The bulk form: the statements run while the budget is not in debt, each taking its expected charge.
    let spare = bucket.available(this.clock.now());
    let admitted = 0;
    while (admitted < expected.length && spare >= 0) spare -= expected[admitted++]!;
    if (admitted === expected.length) return this.runMetered(connection, command, body, started, activityId, run);
    return this.runPartially(connection, command, body, field, statements as unknown[], admitted, expected.slice(admitted), started, activityId, run);
  }

  /**
   * The charge each statement of a write is expected to take: an insert's from its document (an
   * `_id` the server adds: 17 bytes more), an update's or delete's that of one 1 KB document.
   */
  private expectedCharges(command: string, db: string, body: Document, statements: unknown[]): number[] {
    const target = body[Object.keys(body)[0] ?? ''];
    const coll = typeof target === 'string' ? this.catalog.get(db, target) : undefined;
    const indexes = 1 + (coll?.indexes.length ?? 0);
    return statements.map((statement) => {
      const bytes = command === 'insert' && isDocument(statement) ? bsonSize(statement) + (Object.hasOwn(statement, '_id') ? 0 : 17) : 1024;
      return writeCharge({ bytes, indexes });
    });
  }

  /** The ms until the bucket holds what `expected` adds up to (at least 1: a throttled request waits). */
  private msUntilHolding(expected: readonly number[]): number {
    let ru = 0;
    for (const c of expected) ru += c;
    return Math.max(1, this.bucket!.msUntilHolding(ru, this.clock.now()));
  }

  /** Runs the first `admitted` statements; the others are `writeErrors` 16500. */
  private runPartially(connection: object, command: string, body: Document, field: string, statements: unknown[], admitted: number, rest: readonly number[], started: number, activityId: string, run: RunRequest): Answer | Promise<Answer> {
    const partial = { ...body, [field]: statements.slice(0, admitted) };
    const ordered = body.ordered !== false;
    const finish = (answer: Answer): Answer => {
      const reply = replyOf(answer);
      // Told once the statements that ran were charged: when the bucket will hold the rest.
      if (reply !== undefined && reply.ok === undefined) addThrottledStatements(reply, admitted, statements.length, ordered, this.msUntilHolding(rest), activityId);
      return answer;
    };
    const answer = this.runMetered(connection, command, partial, started, activityId, run);
    return answer instanceof Promise ? answer.then(finish) : finish(answer);
  }

  /** A refused request: nothing runs, no charge; 16500 (in the bulk form for a write). */
  private refuse(connection: object, command: string, body: Document, started: number, activityId: string, retryAfterMs: number): Answer {
    const field = STATEMENTS[command];
    const statements = field === undefined ? undefined : body[field];
    if (field === undefined || !Array.isArray(statements) || statements.length === 0) {
      this.record(connection, command, 0, started, activityId);
      const instead = this.throttledAnswer?.(command, typeof body.$db === 'string' ? body.$db : '', body);
      if (instead !== undefined) return instead;
      throw throttleError(retryAfterMs, activityId);
    }
    // Nothing runs: the reply of a write none of whose statements was done.
    const reply: Document = { n: 0 };
    if (command === 'update') reply.nModified = 0;
    addThrottledStatements(reply, 0, statements.length, body.ordered !== false, retryAfterMs, activityId);
    this.record(connection, command, 0, started, activityId);
    return reply;
  }

  /** Server-side retry: waits on the server clock until the budget admits the request, or 60 s. */
  private async waitAndRun(connection: object, command: string, body: Document, started: number, activityId: string, run: RunRequest): Promise<Answer> {
    const bucket = this.bucket!;
    const from = this.clock.now();
    const deadline = from + SERVER_SIDE_RETRY_LIMIT_MS;
    for (;;) {
      const now = this.clock.now();
      const wait = bucket.retryAfterMs(now);
      if (wait === 0) break;
      if (now >= deadline) {
        this.record(connection, command, 0, started, activityId);
        throw retryTimeLimitError(now - from);
      }
      await untilClock(this.clock, Math.min(now + wait, deadline));
    }
    return this.runMetered(connection, command, body, started, activityId, run);
  }

  /** Runs the request measuring what it does, then charges and records it. */
  private runMetered(connection: object, command: string, body: Document, started: number, activityId: string, run: RunRequest): Answer | Promise<Answer> {
    const usage = emptyUsage();
    const examinedBefore = scanTotals.docsExamined;
    const outer = this.current;
    this.current = usage;
    let answer: Answer | Promise<Answer>;
    const settle = (reply: Document | undefined): void => {
      usage.docsExamined = scanTotals.docsExamined - examinedBefore;
      if (reply !== undefined) returnedDocuments(reply, usage.returnedBytes);
      const charge = DATA_COMMANDS.has(command) ? requestCharge(usage) : 0;
      if (charge > 0) this.bucket?.spend(charge, this.clock.now());
      this.record(connection, command, charge, started, activityId);
    };
    try {
      answer = run(body);
    } catch (err) {
      this.current = outer;
      // A failed request pays for what it examined and wrote before it failed.
      settle(undefined);
      throw err;
    }
    if (!(answer instanceof Promise)) {
      this.current = outer;
      settle(replyOf(answer));
      return answer;
    }
    // An asynchronous command keeps collecting until it is answered (rare: blocking fail points).
    return answer.then(
      (a: Answer) => {
        if (this.current === usage) this.current = outer;
        settle(replyOf(a));
        return a;
      },
      (err: unknown) => {
        if (this.current === usage) this.current = outer;
        settle(undefined);
        throw err;
      },
    );
  }

  private record(connection: object, command: string, charge: number, started: number, activityId: string): void {
    this.last.set(connection, { commandName: command, requestCharge: charge, durationMs: Math.round((monotonicMs() - started) * 10000) / 10000, activityId });
  }
}

/** Adds the 16500 `writeErrors` of the statements from `done` on (only the first when ordered). */
function addThrottledStatements(reply: Document, done: number, total: number, ordered: boolean, retryAfterMs: number, activityId: string): void {
  const existing = Array.isArray(reply.writeErrors) ? (reply.writeErrors as Document[]) : [];
  // An ordered batch that stopped on its own error before the throttled statements never reached them.
  if (ordered && existing.length > 0) return;
  // One error, its writeError entry copied per statement (a batch may leave thousands undone).
  const entry = throttleError(retryAfterMs, activityId).toWriteError(0);
  const added: Document[] = [];
  for (let i = done; i < (ordered ? Math.min(done + 1, total) : total); i++) added.push({ ...entry, index: i });
  if (added.length === 0) return;
  reply.writeErrors = [...existing, ...added];
}

/** The BSON sizes of the documents a reply returns (cursor batches, findAndModify's `value`). */
function returnedDocuments(reply: Document, out: number[]): void {
  const cursor = reply.cursor;
  if (isDocument(cursor)) {
    const batch = cursor.firstBatch ?? cursor.nextBatch;
    if (Array.isArray(batch)) for (const doc of batch) if (isDocument(doc)) out.push(sizeOf(doc));
  }
  if (isDocument(reply.value)) out.push(sizeOf(reply.value));
}

function sizeOf(doc: Document): number {
  return doc instanceof EncodedDocument ? doc.bsonSize() : bsonSize(doc);
}

function isDocument(v: unknown): v is Document {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Double);
}

/** Resolves once `clock` reads `atMs` or later: on a manual clock when it is advanced, else by a timer. */
function untilClock(clock: Clock, atMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (clock.now() >= atMs) return resolve();
    if (clock.mode === 'manual') {
      const stop = clock.onAdvance(() => {
        if (clock.now() < atMs) return;
        stop();
        resolve();
      });
      return;
    }
    // Unref'd: a request still waiting when the server stops does not keep the process alive.
    setTimeout(resolve, Math.max(1, atMs - clock.now())).unref();
  });
}

/** The reply document of an answer (none for a symbol). */
function replyOf(answer: Answer): Document | undefined {
  return typeof answer === 'symbol' ? undefined : answer;
}

const METERS = new WeakMap<object, RequestUnits>();

/** Gives `server` its meter (Cosmos mode only; the server does it as it is made). */
export function installRequestUnits(server: object, meter: RequestUnits): void {
  METERS.set(server, meter);
}

/** The meter of `server`; undefined outside Cosmos mode. */
export function requestUnitsOf(server: object): RequestUnits | undefined {
  return METERS.get(server);
}
