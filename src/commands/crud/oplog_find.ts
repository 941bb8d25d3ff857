/**
 * `find` on `local.oplog.rs` of the replica-set presentation: the change log's entries in
 * mongod's oplog shape (change_log.ts), read as mongod reads its capped oplog collection:
 * `filter` (what tailers send: `{ts: {$gt: T}}`, `ns`, `op`, any field), `sort` (`$natural: 1`
 * commit order, `-1` newest first, or any other sort), `skip`, `limit`, `projection`, `batchSize`,
 * `singleBatch`; with `tailable` (and `awaitData`) the cursor stays open at the end and a getMore
 * sees every later commit (woken by the change log). The tailable rules are query_request_helper's:
 * awaitData needs tailable (9), a tailable cursor sorts by `{$natural: 1}` only and is not a
 * single batch (2).
 */
import { Long, Timestamp, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { changeLogOf, OplogCursor } from '../../storage/change_log.js';
import { DEFAULT_FIRST_BATCH_DOCS } from '../../storage/cursors.js';
import { compileFilter } from '../../storage/query/compile_filter.js';
import { compileProjection, isIdentityProjection } from '../../storage/projection/compile_projection.js';
import { compileSort } from '../../storage/query/sort.js';
import { isDocument } from '../../storage/values/paths.js';
import { parsePipeline, runStages } from '../../storage/aggregation/pipeline.js';
import type { CommandContext } from '../types.js';
import { intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import { serverSourceContext } from './aggregate_request.js';

/** The namespace read. */
const OPLOG_NS = 'local.oplog.rs';

/** True when `find` in `ctx` reads the replica set's oplog. */
export function readsOplog(ctx: CommandContext, name: string): boolean {
  return ctx.db === 'local' && name === 'oplog.rs' && changeLogOf(ctx.server.catalog) !== undefined;
}

/** True when the aggregate `cmd` in `ctx` reads the replica set's oplog. */
export function aggregatesOplog(ctx: CommandContext, cmd: Document): boolean {
  return typeof cmd.aggregate === 'string' && readsOplog(ctx, cmd.aggregate);
}

/**
 * An aggregate on `local.oplog.rs`: its pipeline over the entries as of now, in commit order (a
 * leading `$match` is a filter like find's; `$sort`, `$group`, `$count`, `$project`... as on any
 * collection).
 */
export function aggregateOplog(ctx: CommandContext, cmd: Document, batchSize: number | undefined): Document {
  const log = changeLogOf(ctx.server.catalog)!;
  const nowMs = ctx.now();
  const pctx = serverSourceContext(ctx, cmd, 'oplog.rs', true, nowMs);
  const parsed = parsePipeline((cmd.pipeline as Document[] | undefined) ?? [], pctx, 'aggregate');
  ctx.server.counters.opcounters.command++;
  const entries = [...log.oplogEntries().all];
  const output = runStages(parsed.stages, entries);
  return firstBatchReply(ctx, OPLOG_NS, output[Symbol.iterator](), { batchSize: batchSize ?? DEFAULT_FIRST_BATCH_DOCS });
}

/** `1` or `-1` when `sort` is `{$natural: ±1}` alone (0 when there is no sort), else null. */
function naturalDirection(sort: Document | undefined): number | null {
  if (sort === undefined) return 0;
  const keys = Object.keys(sort);
  if (keys.length === 0) return 0;
  if (keys.length !== 1 || keys[0] !== '$natural') return null;
  const value = Number(sort.$natural);
  return value === 1 || value === -1 ? value : null;
}

/** The index of the first entry whose `ts` may pass `filter`'s lower bound on `ts` (0 when it has none). */
function firstCandidate(entries: readonly Document[], filter: Document): number {
  const bound = filter.ts;
  if (!isDocument(bound)) return 0;
  const gt = bound.$gt instanceof Timestamp ? bound.$gt : undefined;
  const gte = bound.$gte instanceof Timestamp ? bound.$gte : undefined;
  const low = gt ?? gte;
  if (low === undefined) return 0;
  // Entries are in ts order: the first one past the bound, by bisection.
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = (entries[mid]!.ts as Timestamp).compare(low);
    if (c < 0 || (c === 0 && gt !== undefined)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The reply of a find on `local.oplog.rs`. */
export function findOplog(ctx: CommandContext, cmd: Document, batchSize: number | undefined): Document {
  const log = changeLogOf(ctx.server.catalog)!;
  const tailable = cmd.tailable === true;
  const sort = isDocument(cmd.sort) ? cmd.sort : undefined;
  if (cmd.awaitData === true && !tailable) throw new CommandError('FailedToParse', "Cannot set 'awaitData' without also setting 'tailable'");
  const natural = naturalDirection(sort);
  if (tailable && natural !== 0 && natural !== 1) throw new CommandError('BadValue', 'cannot use tailable option with a sort other than {$natural: 1}');
  if (tailable && cmd.singleBatch === true) throw new CommandError('BadValue', "cannot use tailable option with the 'singleBatch' option");
  const filter = isDocument(cmd.filter) ? cmd.filter : {};
  const predicate = compileFilter(filter);
  const comparator = natural === null ? compileSort(sort!) : undefined;
  const projection = isDocument(cmd.projection) && !isIdentityProjection(cmd.projection) ? compileProjection(cmd.projection) : undefined;
  const skip = intArg(cmd, 'skip') ?? 0;
  const limit = intArg(cmd, 'limit') ?? 0;
  ctx.server.counters.opcounters.query++;
  const oplog = log.oplogEntries();

  if (tailable) {
    const cursor = new OplogCursor(OPLOG_NS, ctx.now(), log, predicate, true, cmd.awaitData === true, {
      from: oplog.dropped + firstCandidate(oplog.all, filter),
      skip,
      limit,
      ...(projection ? { project: projection } : {}),
    });
    const firstBatch = cursor.nextBatch(firstBatchSize(batchSize, limit));
    if (cursor.exhausted) return { cursor: { firstBatch, id: Long.ZERO, ns: OPLOG_NS } };
    return { cursor: { firstBatch, id: ctx.server.cursors.register(cursor), ns: OPLOG_NS } };
  }

  // A read of what is there now: the entries as of this find, in the order asked.
  const entries = oplog.all;
  let matched: Document[] = [];
  if (natural === -1) {
    for (let k = entries.length - 1; k >= 0; k--) if (predicate(entries[k]!)) matched.push(entries[k]!);
  } else {
    for (let k = natural === null ? 0 : firstCandidate(entries, filter); k < entries.length; k++) if (predicate(entries[k]!)) matched.push(entries[k]!);
  }
  if (comparator) matched = stableSort(matched, comparator);
  let selected = matched.slice(skip, limit > 0 ? skip + limit : undefined);
  if (projection) selected = selected.map(projection);
  return firstBatchReply(ctx, OPLOG_NS, selected[Symbol.iterator](), {
    batchSize: firstBatchSize(batchSize, limit),
    singleBatch: cmd.singleBatch === true,
    noCursorTimeout: cmd.noCursorTimeout === true,
  });
}

/** The first batch's size: `batchSize` (101 without), no more than `limit`. */
function firstBatchSize(batchSize: number | undefined, limit: number): number {
  const size = batchSize ?? DEFAULT_FIRST_BATCH_DOCS;
  return limit > 0 && size > limit ? limit : size;
}

/** `docs` sorted by `comparator`, ties in commit order. */
function stableSort(docs: Document[], comparator: (a: Document, b: Document) => number): Document[] {
  return docs
    .map((doc, i) => ({ doc, i }))
    .sort((a, b) => comparator(a.doc, b.doc) || a.i - b.i)
    .map((x) => x.doc);
}
