/**
 * Runs a plan tree (`plan.ts`) as lazy iterators over records, counting in each node what
 * explain reports (`works`, `advanced`, `needTime`, `isEOF`, keys and documents examined,
 * seeks, duplicates). Correctness first: whatever the index bounds, every fetched document is
 * tested against the full compiled filter, and a record is handed out only while it is still
 * stored and visible (an open cursor never returns a document deleted or expired meanwhile).
 */
import { documentFieldForOrder, documentFields, recordSize, type StoredDocument } from '../record.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import { ALWAYS_TRUE, predicateFields, predicateNear, predicateStoredTest, predicateText, type Predicate } from '../query/compile_filter.js';
import type { TextQuery } from '../query/operators/text.js';
import { bindTextQuery, scoredDocument, scoreRecord } from './text.js';
import type { NearQuery } from '../query/operators/geo.js';
import { recordsByDistance, requireNearIndex } from './near.js';
import { compileKeyedSort, sortFields, sortItems, type KeyedSort } from '../query/sort.js';
import { keyString } from '../values/key_string.js';
import { IndexScanCursor } from './index_scan.js';
import type { CollScanNode, ExpressNode, FetchNode, IndexScanNode, OrNode, PlanNode, QueryPlan, SortNode, StageStats } from './plan.js';

/** What a running plan reads and tests. */
/**
 * Documents examined by every plan executed in this process, ever (the sum of the stages'
 * `docsExamined`): a reader takes the difference across a synchronous piece of work, as Cosmos
 * mode's request-charge model does (src/cosmos/request_units/).
 */
export const scanTotals = { docsExamined: 0 };

export interface ExecutionContext {
  readonly coll: Collection;
  /** The full compiled filter. */
  readonly predicate: Predicate;
  readonly now: () => number;
  /** Also measure what only explain shows (sorted data sizes). */
  readonly explain?: boolean;
  /**
   * The bytes a blocking sort may hold when it may not spill to disk (`allowDiskUse: false`;
   * mongod's `internalQueryMaxBlockingSortMemoryUsageBytes`): past them, 292. Absent: no limit.
   */
  readonly sortMemoryLimitBytes?: number;
}

/**
 * A test of records by `predicate` that reads their stored bytes as little as it can: a test of
 * the bytes themselves when the filter has one (`predicateStoredTest`), else the filter on the
 * top-level fields it reads (`predicateFields`).
 */
export function recordMatcher(predicate: Predicate): (rec: StoredDocument) => boolean {
  const fields = predicateFields(predicate);
  const storedTest = predicateStoredTest(predicate);
  if (storedTest === null) return (rec) => predicate(documentFields(rec, fields));
  return (rec) => {
    const bson = rec.bson;
    const answer = bson === undefined ? undefined : storedTest(bson);
    return answer ?? predicate(documentFields(rec, fields));
  };
}

/** The records `plan` produces, lazily, in plan order. */
export function executePlan(plan: QueryPlan, ctx: ExecutionContext): IterableIterator<StoredDocument> {
  // An express plan reads its (at most a few) records at once: no generator chain.
  if (plan.root.stage === 'EXPRESS_IXSCAN') return express(plan.root, ctx).values();
  const near = predicateNear(ctx.predicate);
  if (near !== null) {
    requireNearIndex(ctx.coll, near);
    return runNear(plan.root, ctx, near);
  }
  const text = predicateText(ctx.predicate);
  if (text !== null) {
    bindTextQuery(ctx.coll, text);
    return runText(plan.root, ctx, text);
  }
  // A lone collection scan (no filter stage above it) is handed out as it is: one generator fewer per record.
  if (plan.root.stage === 'COLLSCAN') return collScan(plan.root, ctx);
  return run(plan.root, ctx);
}

/**
 * Visits the records `plan` produces, in plan order, at once: for a reader that takes every one
 * before it hands anything out (`$group`, a blocking sort). A forward collection scan runs as
 * one loop over the records (no iterator per plan layer, none per record), counting what
 * `collScan` counts; any other plan is iterated. `visit` must not write to the collection.
 */
export function forEachPlanRecord(plan: QueryPlan, ctx: ExecutionContext, visit: (rec: StoredDocument) => void): void {
  const root = plan.root;
  if (root.stage === 'COLLSCAN' && loopable(root, ctx)) collScanLoop(root, ctx, visit);
  else for (const rec of executePlan(plan, ctx)) visit(rec);
}

/** True when `collScanLoop` gives what `collScan` gives for `node`: a forward scan of a plain collection, no near query. */
function loopable(node: CollScanNode, ctx: ExecutionContext): boolean {
  return node.direction === 1 && ctx.coll.kind === null && predicateNear(ctx.predicate) === null && predicateText(ctx.predicate) === null;
}

/** `collScan` of a forward scan, each record handed to `visit` (see `forEachPlanRecord`). */
function collScanLoop(node: CollScanNode, ctx: ExecutionContext, visit: (rec: StoredDocument) => void): void {
  const { coll, predicate, now } = ctx;
  const matches = predicate === ALWAYS_TRUE ? null : recordMatcher(predicate);
  const visible = coll.visibility;
  const indexed = node.indexed;
  const stats = node.stats;
  for (const rec of coll.allRecords()) {
    if (visible !== null && !visible(rec, now())) continue;
    node.docsExamined++;
    scanTotals.docsExamined++;
    if ((matches !== null && !matches(rec)) || (indexed !== undefined && !indexed(rec.doc))) {
      stats.needTime++;
      continue;
    }
    stats.advanced++;
    visit(rec);
  }
  finish(stats);
}

/** The limit, skip and sort above a plan's reading stages (projections passed), and the node they read from. */
function planTail(root: PlanNode): { node: PlanNode; skip: number; limit: number; sortNode: SortNode | null } {
  let node = root;
  let skip = 0;
  let limit = 0;
  let sortNode: SortNode | null = null;
  for (;;) {
    if (node.stage === 'LIMIT') limit = limit === 0 ? node.amount : Math.min(limit, node.amount);
    else if (node.stage === 'SKIP') skip += node.amount;
    else if (node.stage === 'SORT') sortNode = node;
    else if (node.stage !== 'PROJECTION_SIMPLE' && node.stage !== 'PROJECTION_DEFAULT') break;
    node = node.input;
  }
  return { node, skip, limit, sortNode };
}

/**
 * A plan whose filter has a near query: its matches in order of distance (`../geo/near_read.ts`),
 * then the plan's own sort (which, when given, orders them instead), skip and limit.
 */
function* runNear(root: PlanNode, ctx: ExecutionContext, near: NearQuery): Generator<StoredDocument> {
  const { node, skip, limit, sortNode } = planTail(root);
  let ordered = recordsByDistance(run(node, ctx), near);
  if (sortNode !== null) {
    ordered = sortItems(ordered, (rec) => rec.doc, compileKeyedSort(sortNode.pattern, sortNode.collator));
  }
  let handed = 0;
  for (const rec of ordered.slice(skip)) {
    if (limit > 0 && handed >= limit) return;
    if (!ctx.coll.isLive(rec, ctx.now())) continue;
    handed++;
    yield rec;
  }
}

/**
 * A plan whose filter has a `$text` query: its matches, their text scores noted (`./text.ts`), then the plan's sort (which may order by the score), skip and limit.
 */
function* runText(root: PlanNode, ctx: ExecutionContext, text: TextQuery): Generator<StoredDocument> {
  const { node, skip, limit, sortNode } = planTail(root);
  const scored = function* (): Generator<StoredDocument> {
    for (const rec of run(node, ctx)) {
      // Every record here matches the filter; one matched by a $text query's sibling $or branch has no score.
      scoreRecord(rec, text);
      yield rec;
    }
  };
  let ordered: Iterable<StoredDocument> = scored();
  if (sortNode !== null) {
    ordered = sortItems(ordered, (rec) => scoredDocument(rec, text), compileKeyedSort(sortNode.pattern, sortNode.collator));
  }
  let handed = 0;
  let toSkip = skip;
  for (const rec of ordered) {
    if (!ctx.coll.isLive(rec, ctx.now())) continue;
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    if (limit > 0 && handed >= limit) return;
    handed++;
    yield rec;
  }
}

/** Marks a stage as having reached its end (explain derives `works`/`needTime` from counters). */
function finish(stats: StageStats): void {
  stats.isEOF = 1;
}

function* run(node: PlanNode, ctx: ExecutionContext): Generator<StoredDocument> {
  switch (node.stage) {
    case 'COLLSCAN':
      yield* collScan(node, ctx);
      return;
    case 'IXSCAN':
      yield* indexScan(node);
      return;
    case 'FETCH':
      yield* fetch(node, ctx);
      return;
    case 'OR':
      yield* or(node);
      return;
    case 'SORT':
      yield* sort(node, ctx);
      return;
    case 'SKIP': {
      let toSkip = node.amount;
      for (const rec of run(node.input, ctx)) {
        if (toSkip > 0) {
          toSkip--;
          node.stats.needTime++;
          continue;
        }
        node.stats.advanced++;
        yield rec;
      }
      finish(node.stats);
      return;
    }
    case 'LIMIT': {
      if (node.amount <= 0) return;
      let left = node.amount;
      for (const rec of run(node.input, ctx)) {
        node.stats.advanced++;
        yield rec;
        if (--left === 0) {
          finish(node.stats);
          return;
        }
      }
      finish(node.stats);
      return;
    }
    case 'PROJECTION_SIMPLE':
    case 'PROJECTION_DEFAULT':
    case 'SUBPLAN':
      for (const rec of run(node.input, ctx)) {
        node.stats.advanced++;
        yield rec;
      }
      finish(node.stats);
      return;
    case 'EXPRESS_IXSCAN':
      yield* express(node, ctx);
      return;
    case 'EOF':
      finish(node.stats);
      return;
  }
}

function* collScan(node: CollScanNode, ctx: ExecutionContext): Generator<StoredDocument> {
  const { coll, predicate, now } = ctx;
  // An empty filter matches every record: nothing to test.
  const matches = predicate === ALWAYS_TRUE ? null : recordMatcher(predicate);
  const records = node.direction === 1 ? coll.scan(now) : [...coll.scan(now)].reverse();
  for (const rec of records) {
    if (node.direction === -1 && !coll.isLive(rec, now())) continue;
    node.docsExamined++;
    scanTotals.docsExamined++;
    if ((matches !== null && !matches(rec)) || (node.indexed !== undefined && !node.indexed(rec.doc))) {
      node.stats.needTime++;
      continue;
    }
    node.stats.advanced++;
    yield rec;
  }
  finish(node.stats);
}

function* indexScan(node: IndexScanNode): Generator<StoredDocument> {
  node.index.accesses.ops++; // $indexStats
  const cursor = new IndexScanCursor(node.index, node.bounds, node.range, node.direction, node);
  for (let rec = cursor.next(); rec !== null; rec = cursor.next()) {
    node.stats.advanced++;
    yield rec;
  }
  finish(node.stats);
}

function* fetch(node: FetchNode, ctx: ExecutionContext): Generator<StoredDocument> {
  const { coll, predicate, now } = ctx;
  const matches = recordMatcher(predicate);
  for (const rec of run(node.input, ctx)) {
    if (!coll.isLive(rec, now())) {
      node.stats.needTime++;
      continue;
    }
    node.docsExamined++;
    scanTotals.docsExamined++;
    if (!matches(rec)) {
      node.stats.needTime++;
      continue;
    }
    node.stats.advanced++;
    yield rec;
  }
  finish(node.stats);
}

function* or(node: OrNode): Generator<StoredDocument> {
  const seen = new Set<StoredDocument>();
  for (const input of node.inputs) {
    for (const rec of indexScan(input)) {
      node.dupsTested++;
      if (seen.has(rec)) {
        node.dupsDropped++;
        node.stats.needTime++;
        continue;
      }
      seen.add(rec);
      node.stats.advanced++;
      yield rec;
    }
  }
  finish(node.stats);
}

function* sort(node: SortNode, ctx: ExecutionContext): Generator<StoredDocument> {
  const { coll, now } = ctx;
  const keyed = compileKeyedSort(node.pattern, node.collator);
  // A sort keeping every record holds them all (a top-k sort only its k): measured when limited.
  const limitBytes = ctx.sortMemoryLimitBytes;
  const measured = ctx.explain === true || (limitBytes !== undefined && node.limitAmount === 0);
  // A forward collection scan below the sort is read as one loop (`collScanLoop`), its records
  // handed straight to the sort.
  const input = node.input;
  const all: Iterable<StoredDocument> | ((visit: (rec: StoredDocument) => void) => void) = measured
    ? [...run(input, ctx)]
    : input.stage === 'COLLSCAN' && loopable(input, ctx)
      ? (visit) => collScanLoop(input, ctx, visit)
      : run(input, ctx);
  if (ctx.explain) for (const rec of all as StoredDocument[]) node.totalDataSizeSorted += recordSize(rec);
  if (limitBytes !== undefined && node.limitAmount === 0) {
    let bytes = 0;
    for (const rec of all as StoredDocument[]) {
      bytes += recordSize(rec);
      if (bytes > limitBytes) {
        throw new CommandError(
          'QueryExceededMemoryLimitNoDiskUseAllowed',
          `Sort exceeded memory limit of ${limitBytes} bytes, but did not opt in to external sorting. Aborting operation. Pass allowDiskUse:true to opt in.`,
        );
      }
    }
  }
  // Each record's sort fields are decoded, and its sort values computed, once (a sort by one
  // top-level field reads it from the record's bytes); with a limit only the first `limit`
  // records are kept (a bounded heap), not all of them sorted.
  const fields = sortFields(node.pattern);
  const kept = sortItems(all, (rec) => documentFields(rec, fields), keyed, node.limitAmount, storedSortValue(keyed, fields));
  for (const rec of kept) {
    // Re-check at hand-out time: the record may have expired or been removed since.
    if (!coll.isLive(rec, now())) continue;
    node.stats.advanced++;
    yield rec;
  }
  finish(node.stats);
}

/** The sort value of a record for a sort by one top-level field, read from its bytes; undefined for other sorts. */
function storedSortValue(keyed: KeyedSort, fields: readonly string[]): ((rec: StoredDocument) => unknown) | undefined {
  const field = keyed.field;
  if (field === null) return undefined;
  return (rec) => {
    const value = documentFieldForOrder(rec, field);
    // Missing (or a BSON undefined, which reads alike): the document tells which.
    return value === undefined ? keyed.firstValue(documentFields(rec, fields)) : keyed.fieldKey(value);
  };
}

/**
 * The records of an express plan, read at once (a point lookup: at most one record by `_id` or a
 * unique index, the first match under limit 1, or every match of a unique multikey value), with
 * the stage's counters final.
 */
function express(node: ExpressNode, ctx: ExecutionContext): StoredDocument[] {
  return expressRecords(node, ctx.coll, recordMatcher(ctx.predicate), ctx.now);
}

/** The records of the express node `node` that `matches` accepts, as `express` reads them. */
export function expressRecords(node: ExpressNode, coll: Collection, matches: (rec: StoredDocument) => boolean, now: () => number): StoredDocument[] {
  const out: StoredDocument[] = [];
  node.index.accesses.ops++; // $indexStats
  if (node.index.isId) {
    const rec = coll.rawGet(keyString(node.value));
    if (rec) {
      node.keysExamined++;
      if (coll.isVisible(rec, now())) {
        node.docsExamined++;
        scanTotals.docsExamined++;
        if (matches(rec)) out.push(rec);
      }
    }
  } else {
    // The entries whose first key field equals the value are contiguous; they are read before
    // any is handed out, so that a write to a matching document cannot move entries under the walk.
    const index = node.index;
    const value = node.value;
    const sign = index.directions[0]!;
    const compound = index.fields.length > 1;
    const compareValue = index.compareValue;
    const first = compound ? (k: unknown) => sign * compareValue((k as unknown[])[0], value) : (k: unknown) => index.compareKeys(k, value);
    let { leaf, index: at } = index.tree.seek((k) => first(k) >= 0);
    for (;;) {
      if (at >= leaf.keys.length) {
        if (!leaf.next) break;
        leaf = leaf.next;
        at = 0;
      }
      if (first(leaf.keys[at]) !== 0) break;
      const rec = leaf.vals[at]!;
      at++;
      node.keysExamined++;
      if (!coll.isVisible(rec, now())) continue;
      node.docsExamined++;
      scanTotals.docsExamined++;
      if (!matches(rec)) continue;
      out.push(rec);
      if (node.limitOne) break;
    }
  }
  node.stats.advanced += out.length;
  finish(node.stats);
  return out;
}
