/**
 * The query planner: turns a filter, sort, hint, min/max, skip and limit into a plan tree of
 * mongod's stages (COLLSCAN, IXSCAN, FETCH, OR, SORT, SKIP, LIMIT, PROJECTION_*, EXPRESS_IXSCAN,
 * SUBPLAN, EOF). The same tree is executed (`execute.ts`, which fills each node's counters) and
 * explained (`explain_output.ts`). See README.md in this folder for the choice rule.
 *
 * Collation (mongod's rule): a predicate whose bounds hold strings, documents or arrays uses an
 * index only when the index's collation is the query's; other predicates use any index; regex
 * bounds only an index without a collation; an index provides a sort only under the query's
 * collation. A hinted index is scanned whatever its collation, with the bounds it may take.
 */
import type { Document } from '../../bson/library.js';
import { checkTextRequest, filterHasText } from './text.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import { sameCollation } from '../indexes/collation.js';
import type { Index } from '../indexes/index.js';
import { IndexKinds } from '../indexes/key_pattern.js';
import { parseSortSpec, type SortKey } from '../query/sort.js';
import { isNumber, toDouble } from '../values/numeric.js';
import type { Collator } from '../values/collator.js';
import { valuesEqual } from '../values/compare.js';
import { keyPatternsEqual } from '../indexes/key_pattern.js';
import { filterAllows, indexFilterFor, type IndexFilterEntry } from './index_filters.js';
import { isDocument, MISSING, parsePath, walkPath } from '../values/paths.js';
import { ALL_VALUES, intersect, isAllValues, isPoint, type IntervalList } from './intervals.js';
import { analyzeFilter, combine, normaliseFilter, type FilterAnalysis, type PathPredicate } from './predicates.js';
import { estimateKeys, type ScanRange } from './index_scan.js';
import { expandedKeyPattern, noWildcardPlan, wildcardCandidate } from './wildcard.js';

/** Counters every stage keeps (explain's `works`, `advanced`, …). */
export interface StageStats {
  works: number;
  advanced: number;
  needTime: number;
  isEOF: number;
}

function newStats(): StageStats {
  return { works: 0, advanced: 0, needTime: 0, isEOF: 0 };
}

/** A full collection scan in natural order. */
export interface CollScanNode {
  readonly stage: 'COLLSCAN';
  readonly direction: 1 | -1;
  /** The filter explain shows (the whole normalised filter), null when empty. */
  readonly filter: Document | null;
  readonly stats: StageStats;
  docsExamined: number;
  /**
   * Set when the scan stands for a hinted 2d or 2dsphere index (which keeps no entries): only the
   * documents that index holds (those with a value at one of its geo fields) are read.
   */
  readonly indexed?: (doc: Document) => boolean;
}

/** A scan of one index over per-field bounds (or a min/max key range). */
export interface IndexScanNode {
  readonly stage: 'IXSCAN';
  readonly index: Index;
  /** Per key-pattern field, ascending intervals (null for a min/max range scan). */
  readonly bounds: IntervalList[] | null;
  /** The key range of a min/max scan. */
  readonly range: ScanRange | null;
  /** 1: index order; -1: reverse. */
  readonly direction: 1 | -1;
  /** The key pattern explain shows when it is not the index's (a wildcard index expanded for a path). */
  readonly keyPattern?: Document;
  readonly stats: StageStats;
  keysExamined: number;
  seeks: number;
  dupsTested: number;
  dupsDropped: number;
}

/** Reads the documents of the records its input yields, and applies the filter. */
export interface FetchNode {
  readonly stage: 'FETCH';
  /** The residual filter explain shows (what the index bounds do not answer exactly). */
  readonly filter: Document | null;
  readonly input: IndexScanNode | OrNode;
  readonly stats: StageStats;
  docsExamined: number;
}

/** The union of several index scans, without duplicates. */
export interface OrNode {
  readonly stage: 'OR';
  readonly inputs: IndexScanNode[];
  readonly stats: StageStats;
  dupsTested: number;
  dupsDropped: number;
}

/** An in-memory (blocking) sort. */
export interface SortNode {
  readonly stage: 'SORT';
  readonly pattern: Document;
  /** skip + limit when a limit applies (0: none). */
  readonly limitAmount: number;
  readonly input: PlanNode;
  readonly stats: StageStats;
  totalDataSizeSorted: number;
  /** The query's collation, which the sort follows (null: simple). */
  readonly collator: Collator | null;
}

/** Skips documents. */
export interface SkipNode {
  readonly stage: 'SKIP';
  readonly amount: number;
  readonly input: PlanNode;
  readonly stats: StageStats;
}

/** Stops after a number of documents. */
export interface LimitNode {
  readonly stage: 'LIMIT';
  readonly amount: number;
  readonly input: PlanNode;
  readonly stats: StageStats;
}

/** A projection (applied by the caller; shown in explain). */
export interface ProjectionNode {
  readonly stage: 'PROJECTION_SIMPLE' | 'PROJECTION_DEFAULT';
  readonly transformBy: Document;
  readonly input: PlanNode;
  readonly stats: StageStats;
}

/** mongod 8's express path: one equality lookup on `_id` or a unique single-field index. */
export interface ExpressNode {
  readonly stage: 'EXPRESS_IXSCAN';
  readonly index: Index;
  readonly value: unknown;
  /** Stop after the first matching document (a non-unique index under `limit: 1`). */
  readonly limitOne: boolean;
  readonly stats: StageStats;
  keysExamined: number;
  docsExamined: number;
}

/** Wraps the plan of a rooted `$or` (mongod plans each branch separately). */
export interface SubplanNode {
  readonly stage: 'SUBPLAN';
  readonly input: PlanNode;
  readonly stats: StageStats;
}

/** No data: the collection does not exist. */
export interface EofNode {
  readonly stage: 'EOF';
  readonly stats: StageStats;
}

/** A stage of a plan. */
export type PlanNode =
  | CollScanNode
  | IndexScanNode
  | FetchNode
  | OrNode
  | SortNode
  | SkipNode
  | LimitNode
  | ProjectionNode
  | ExpressNode
  | SubplanNode
  | EofNode;

/** What to plan. */
export interface PlanRequest {
  readonly filter: Document;
  readonly sort?: Document | null;
  readonly hint?: unknown;
  readonly min?: Document | null;
  readonly max?: Document | null;
  readonly skip?: number;
  /** 0 or absent: no limit. */
  readonly limit?: number;
  /** Shown as a PROJECTION stage (the caller applies it). */
  readonly projection?: Document | null;
  /** Allow the express path (find and its cousins; not for write explains that need a plan tree). */
  readonly allowExpress?: boolean;
  /** The query's collation (null or absent: simple). */
  readonly collator?: Collator | null;
  /**
   * The find's projection when it is applied outside the plan (no PROJECTION stage): part of the
   * query shape an index filter is set for (`projection` counts too).
   */
  readonly shapeProjection?: Document | null;
}

/** A plan: its root stage, and what explain prints around it. */
export interface QueryPlan {
  readonly root: PlanNode;
  readonly parsedQuery: Document;
  /** True when the rows come out of the data-access stages already in the requested order. */
  readonly sortProvided: boolean;
  /** True when an index filter (planCacheSetFilter) chose the indexes planned over. */
  readonly indexFilterSet: boolean;
}

/** The `$natural` direction of a sort or hint `{ $natural: ±1 }`, if it is one. */
export function naturalDirection(spec: unknown): 1 | -1 | null {
  if (!isDocument(spec)) return null;
  const keys = Object.keys(spec);
  if (keys.length !== 1 || keys[0] !== '$natural') return null;
  const v = spec.$natural;
  if (!isNumber(v)) return null;
  const d = toDouble(v);
  if (d !== 1 && d !== -1) throw new CommandError('BadValue', '$natural hint cannot be set to a value other than -1 or 1.');
  return d === 1 ? 1 : -1;
}

/**
 * The index a hint names (by name or key pattern), `'natural'` for `{$natural: ±1}`, or null when
 * there is no hint. Throws mongod's BadValue when the index does not exist or is hidden.
 */
export function resolveHint(coll: Collection | undefined, hint: unknown): Index | 'natural' | null {
  if (hint === undefined || hint === null) return null;
  if (typeof hint === 'string') {
    const index = coll?.findIndex(hint);
    if (index && !index.hidden) return index;
  } else if (isDocument(hint)) {
    const keys = Object.keys(hint);
    if (keys.length === 0) return null;
    if (naturalDirection(hint) !== null) return 'natural';
    const index = coll?.allIndexes().find((i) => keyPatternsEqual(i.keyPattern, hint));
    if (index && !index.hidden) return index;
  } else {
    return null;
  }
  throw new CommandError('BadValue', 'hint provided does not correspond to an existing index');
}


/** Plans a query on `coll` (undefined: the collection does not exist). */
export function planQuery(coll: Collection | undefined, request: PlanRequest): QueryPlan {
  const filter = request.filter;
  if (filterHasText(filter ?? undefined)) checkTextRequest(request.sort ?? undefined, request.hint);
  // What explain shows is computed only when explain asks for it.
  let parsedMemo: Document | undefined;
  const collator = request.collator ?? null;
  const parsed = (): Document => (parsedMemo ??= normaliseFilter(filter, collator));
  const minMax = (request.min && Object.keys(request.min).length > 0) || (request.max && Object.keys(request.max).length > 0);
  if (request.min && request.max && Object.keys(request.min).length > 0 && Object.keys(request.max).length > 0) {
    const a = Object.keys(request.min);
    const b = Object.keys(request.max);
    if (a.length !== b.length || a.some((k, i) => k !== b[i])) throw new CommandError(51176, 'min and max must have the same field names');
  }
  // An index filter of the query's shape overrides the hint (mongod ignores it then).
  const indexFilter = coll ? indexFilterFor(coll, () => ({ parsedQuery: parsed(), sort: request.sort, projection: request.projection ?? request.shapeProjection, collation: collator?.spec })) : null;
  const hinted = indexFilter ? null : resolveHint(coll, request.hint);
  if (minMax) {
    if (hinted === null || hinted === 'natural') {
      throw new CommandError('NoQueryExecutionPlans', 'When using min()/max() a hint of which index to use must be provided');
    }
    const fields = hinted.fields;
    const compatible = (doc: Document | null | undefined): boolean => {
      if (!doc || Object.keys(doc).length === 0) return true;
      const keys = Object.keys(doc);
      return keys.length === fields.length && keys.every((k, i) => k === fields[i]);
    };
    if (!compatible(request.min) || !compatible(request.max)) {
      throw new CommandError(51174, 'The index chosen is not compatible with min/max');
    }
  }
  if (!coll) return planOf({ stage: 'EOF', stats: newStats() }, parsed, true, false);
  const sortKeys = sortKeysOf(request.sort);
  const analysis = analyzeFilter(filter, collator);
  const skip = request.skip ?? 0;
  const limit = request.limit ?? 0;

  // The express path: a plain equality on `_id` (or a unique single-field index).
  if (request.allowExpress !== false && hinted === null && indexFilter === null && !minMax && skip === 0 && sortKeys.length === 0 && !hasProjection(request.projection)) {
    const express = expressPlan(coll, analysis, limit);
    // At most one document comes out, so a limit needs no stage (mongod shows none either).
    if (express) return planOf(express, parsed, true, false);
  }

  const naturalSort = naturalDirection(request.sort);
  let access: PlanNode;
  let sortProvided = sortKeys.length === 0;
  if (hinted === 'natural' || naturalSort !== null) {
    const direction = hinted === 'natural' ? naturalDirection(request.hint)! : naturalSort!;
    access = collScan(direction, parsed);
    // Natural order is the order only of a `$natural` sort; any other sort still sorts.
    sortProvided = sortKeys.length === 0;
  } else if (hinted !== null) {
    if (hinted.kind === IndexKinds.geo2d || hinted.kind === IndexKinds.geo2dsphere) {
      // A geo index keeps no entries: the scan reads the documents it would hold.
      access = new CollScan(1, parsed, geoIndexHolds(hinted));
    } else if (hinted.wildcard !== null && !minMax) {
      const candidate = asCandidate(wildcardCandidate(hinted, analysis, sortKeys));
      if (candidate === null) throw noWildcardPlan();
      access = fetch(scanOf(candidate), () => residual(analysis, candidate.exactlyUsed));
      sortProvided = sortProvided || candidate.sortDirection !== 0;
    } else if (hinted.kind !== IndexKinds.btree && hinted.kind !== IndexKinds.hashed) {
      throw new CommandError('NotImplemented', `Queries hinting a ${hinted.kind} index are not supported by Mayfly yet`);
    } else if (hinted.entryless) {
      throw new CommandError('NotImplemented', `Queries hinting the index '${hinted.name}' on the system last-modified time are not supported by Mayfly yet`);
    } else if (minMax) {
      const range: ScanRange = {
        start: request.min && Object.keys(request.min).length > 0 ? keyOf(hinted, request.min) : undefined,
        end: request.max && Object.keys(request.max).length > 0 ? keyOf(hinted, request.max) : undefined,
      };
      access = fetch(indexScan(hinted, null, range, 1), parsed);
      sortProvided = sortKeys.length === 0 || providedDirection(hinted, null, sortKeys, collator) === 1;
    } else {
      const candidate = candidateFor(hinted, analysis, sortKeys, true);
      access = fetch(indexScan(hinted, candidate.bounds, null, candidate.sortDirection || 1), () => residual(analysis, candidate.exactlyUsed));
      sortProvided = sortProvided || candidate.sortDirection !== 0;
    }
  } else {
    const chosen = chooseIndex(coll, analysis, sortKeys, indexFilter);
    const rootedOr = analysis.orBranches !== null && analysis.predicates.length === 0 && analysis.others.length === 1;
    if (rootedOr) {
      const or = orPlan(coll, analysis, indexFilter);
      access = { stage: 'SUBPLAN', input: or ?? accessFor(chosen, analysis, parsed), stats: newStats() };
      sortProvided = sortProvided || (or === null && chosen !== null && chosen.sortDirection !== 0);
    } else {
      access = accessFor(chosen, analysis, parsed);
      sortProvided = sortProvided || (chosen !== null && chosen.sortDirection !== 0);
    }
  }

  let root: PlanNode = access;
  if (!sortProvided) {
    root = { stage: 'SORT', pattern: request.sort!, limitAmount: limit > 0 ? skip + limit : 0, input: root, stats: newStats(), totalDataSizeSorted: 0, collator };
    if (skip > 0) root = { stage: 'SKIP', amount: skip, input: root, stats: newStats() };
  } else {
    if (skip > 0) root = { stage: 'SKIP', amount: skip, input: root, stats: newStats() };
    if (limit > 0) root = wrapLimit(root, limit);
  }
  if (hasProjection(request.projection)) {
    root = { stage: isSimpleProjection(request.projection!) ? 'PROJECTION_SIMPLE' : 'PROJECTION_DEFAULT', transformBy: request.projection!, input: root, stats: newStats() };
  }
  return planOf(root, parsed, sortProvided, indexFilter !== null);
}

/** A plan whose `parsedQuery` is rendered on first use (a class: accessor literals are slow). */
class LazyPlan implements QueryPlan {
  constructor(
    readonly root: PlanNode,
    private readonly parsed: () => Document,
    readonly sortProvided: boolean,
    readonly indexFilterSet: boolean,
  ) {}

  get parsedQuery(): Document {
    return this.parsed();
  }
}

function planOf(root: PlanNode, parsed: () => Document, sortProvided: boolean, indexFilterSet: boolean): QueryPlan {
  return new LazyPlan(root, parsed, sortProvided, indexFilterSet);
}

function wrapLimit(input: PlanNode, amount: number): LimitNode {
  return { stage: 'LIMIT', amount, input, stats: newStats() };
}

function hasProjection(p: Document | null | undefined): boolean {
  return !!p && Object.keys(p).length > 0;
}

/** mongod's "simple" projection: top-level inclusions or exclusions only. */
function isSimpleProjection(p: Document): boolean {
  return Object.entries(p).every(([k, v]) => !k.includes('.') && !k.startsWith('$') && (typeof v === 'boolean' || isNumber(v)));
}

function sortKeysOf(sort: Document | null | undefined): SortKey[] {
  if (!sort || Object.keys(sort).length === 0 || naturalDirection(sort) !== null) return [];
  const keys = parseSortSpec(sort);
  // No index provides an order by metadata: such a sort is always a blocking SORT.
  if (keys.some((k) => k.meta !== undefined)) return keys.map((k) => (k.meta !== undefined ? { ...k, path: '$meta', parts: ['$meta'] } : k));
  return keys;
}

/** COLLSCAN; its `filter` (the whole normalised filter) is rendered on first use. */
class CollScan implements CollScanNode {
  readonly stage = 'COLLSCAN';
  readonly stats = newStats();
  docsExamined = 0;
  constructor(
    readonly direction: 1 | -1,
    private readonly parsed: () => Document,
    readonly indexed?: (doc: Document) => boolean,
  ) {}

  get filter(): Document | null {
    const q = this.parsed();
    return Object.keys(q).length > 0 ? q : null;
  }
}

/** Whether a document is held by the 2d/2dsphere index `index` (it has a value at one of its geo fields). */
function geoIndexHolds(index: Index): (doc: Document) => boolean {
  const paths = index.fields.filter((f) => index.keyPattern[f] === '2d' || index.keyPattern[f] === '2dsphere').map(parsePath);
  return (doc) =>
    paths.some((path) => walkPath(doc, path, false, (v) => v !== MISSING && v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)));
}

function collScan(direction: 1 | -1, parsed: () => Document): CollScanNode {
  return new CollScan(direction, parsed);
}

function indexScan(index: Index, bounds: IntervalList[] | null, range: ScanRange | null, direction: 1 | -1, keyPattern?: Document): IndexScanNode {
  const node: IndexScanNode = { stage: 'IXSCAN', index, bounds, range, direction, stats: newStats(), keysExamined: 0, seeks: 0, dupsTested: 0, dupsDropped: 0 };
  return keyPattern ? { ...node, keyPattern } : node;
}

/** The IXSCAN of a chosen candidate (in the direction providing the sort, if it does). */
function scanOf(c: Candidate): IndexScanNode {
  return indexScan(c.index, c.bounds, null, c.sortDirection === 0 ? 1 : c.sortDirection, c.keyPattern);
}

/** A wildcard expansion as a candidate (its key pattern the expanded one). */
function asCandidate(w: ReturnType<typeof wildcardCandidate>): Candidate | null {
  if (w === null) return null;
  const boundedFields = w.bounds.filter((b) => !isAllValues(b)).length;
  return { index: w.index, bounds: w.bounds, exactlyUsed: w.exactlyUsed, boundedFields, sortDirection: w.sortDirection, keyPattern: expandedKeyPattern(w.index, w.path) };
}

/** FETCH; its residual `filter` (what explain shows) is rendered on first use. */
class Fetch implements FetchNode {
  readonly stage = 'FETCH';
  readonly stats = newStats();
  docsExamined = 0;
  private memo: Document | null | undefined = undefined;
  constructor(
    readonly input: IndexScanNode | OrNode,
    private readonly render: () => Document | null,
  ) {}

  get filter(): Document | null {
    if (this.memo === undefined) {
      const f = this.render();
      this.memo = f && Object.keys(f).length > 0 ? f : null;
    }
    return this.memo;
  }
}

function fetch(input: IndexScanNode | OrNode, filter: () => Document | null): FetchNode {
  return new Fetch(input, filter);
}

/** The key tuple of a min/max document for `index`. */
function keyOf(index: Index, doc: Document): unknown {
  const values = index.fields.map((f) => doc[f]);
  return index.fields.length === 1 ? values[0] : values;
}

/**
 * The express plan (mongod 8.0's express path, which skips planning) for a single exact equality:
 * on `_id`; on a unique single-field index; or, when at most one document is wanted (`limit: 1`,
 * as `findOne` sends), on any plain B-tree index whose first field is the path (the one with the
 * fewest fields; a sparse index only for a non-null value; a partial index never). A string
 * `_id` only when neither the query nor the collection has a collation (the lookup is by binary
 * key); a string on another index only under the index's collation.
 */
function expressPlan(coll: Collection, analysis: FilterAnalysis, limit: number): ExpressNode | null {
  if (analysis.others.length > 0 || analysis.predicates.length !== 1) return null;
  const p = analysis.predicates[0]!;
  if (p.op !== '$eq' || !p.exact) return null;
  if (p.path === '_id') {
    if (p.collatable && (analysis.collator !== null || coll.idIndex.collator !== null)) return null;
    return expressNode(coll.idIndex, p.value, false);
  }
  const index = expressIndex(coll, p, limit, analysis.collator);
  return index === null ? null : expressNode(index, p.value, !answersEveryLimit(index));
}

/** What `expressIndex` reads of an equality predicate. */
export type ExpressEquality = Pick<PathPredicate, 'path' | 'value' | 'collatable' | 'binaryOnly'>;

/**
 * The index of an express plan for the equality `p` (not on `_id`) under `limit` and the query
 * collation `collator` (null: simple): a unique single-field index answers any limit; under
 * limit 1, any index led by the field does, the one with the fewest fields. Null when none.
 * Loops, not closures: this runs on every point request.
 */
export function expressIndex(coll: Collection, p: ExpressEquality, limit: number, collator: Collator | null): Index | null {
  let best: Index | null = null;
  for (const i of coll.indexes) {
    if (answersEveryLimit(i) && i.queryable && i.fields[0] === p.path && usableOn(p, i, collator)) return i;
    if (limit !== 1 || !i.queryable || i.partialFilter || (i.sparse && p.value === null) || i.fields[0] !== p.path || !usableOn(p, i, collator)) continue;
    if (best === null || i.fields.length < best.fields.length) best = i;
  }
  return limit === 1 ? best : null;
}

/** True when `index` holds one entry per value at most (an express plan on it needs no limit). */
function answersEveryLimit(index: Index): boolean {
  return index.unique && !index.sparse && !index.partialFilter && !index.multikey && index.fields.length === 1;
}

/** An express plan's node: a lookup of `value` in `index`, stopping at the first match when `limitOne`. */
export function expressNode(index: Index, value: unknown, limitOne: boolean): ExpressNode {
  return { stage: 'EXPRESS_IXSCAN', index, value, limitOne, stats: newStats(), keysExamined: 0, docsExamined: 0 };
}

/** One index considered by the planner. */
interface Candidate {
  readonly index: Index;
  readonly bounds: IntervalList[];
  /** Predicates answered exactly by the bounds (left out of FETCH's filter). */
  readonly exactlyUsed: Set<PathPredicate>;
  /** Fields with bounds narrower than every value. */
  readonly boundedFields: number;
  /** 1 or -1 when a scan in that direction yields the requested sort; 0 when it does not. */
  readonly sortDirection: 1 | -1 | 0;
  /** The key pattern explain shows, when not the index's (a wildcard index expanded for a path). */
  readonly keyPattern?: Document;
}

/** The query collation's spelled-out spec (null: simple). */
function specOf(collator: Collator | null): Document | null {
  return collator === null ? null : collator.spec;
}

/** True when the bounds of `p` (built under the query's collation) hold on `index`. */
function usableOn(p: ExpressEquality, index: Index, collator: Collator | null): boolean {
  if (p.binaryOnly && index.collation !== null) return false;
  return !p.collatable || sameCollation(index.collation, specOf(collator));
}

/** The bounds `analysis` allows on `index`, and what they answer. */
function candidateFor(index: Index, analysis: FilterAnalysis, sortKeys: SortKey[], hinted: boolean): Candidate {
  const bounds: IntervalList[] = index.fields.map(() => ALL_VALUES);
  const exactlyUsed = new Set<PathPredicate>();
  const usedMultikeyPrefixes: string[] = [];
  const usable = hinted ? index.kind === IndexKinds.btree || index.kind === IndexKinds.hashed : index.queryable;
  const cmp = index.compareValue;
  if (usable && index.kind === IndexKinds.btree) {
    index.fields.forEach((field, i) => {
      const preds = analysis.predicates.filter((p) => p.path === field && p.bounds !== null && usableOn(p, index, analysis.collator));
      if (preds.length === 0) return;
      if (index.isMultikeyField(i)) {
        // Bounds of two predicates on a multikey field cannot be intersected (an array can satisfy
        // each with a different element); nor can fields below a shared array be compounded.
        const prefixes = multikeyPrefixes(index, i);
        if (prefixes.some((p) => usedMultikeyPrefixes.includes(p))) return;
        const best = preds.find((p) => !isAllValues(p.bounds!)) ?? preds[0]!;
        bounds[i] = best.bounds!;
        if (best.exact) exactlyUsed.add(best);
        usedMultikeyPrefixes.push(...prefixes);
        return;
      }
      let b: IntervalList = ALL_VALUES;
      for (const p of preds) {
        b = intersect(b, p.bounds!, cmp);
        if (p.exact) exactlyUsed.add(p);
      }
      bounds[i] = b;
    });
  }
  const boundedFields = bounds.filter((b) => !isAllValues(b)).length;
  return { index, bounds, exactlyUsed, boundedFields, sortDirection: sortKeys.length === 0 ? 0 : providedDirection(index, bounds, sortKeys, analysis.collator) };
}

/** The path prefixes at which field `i` of `index` met arrays. */
function multikeyPrefixes(index: Index, i: number): string[] {
  const parts = index.fields[i]!.split('.');
  return [...index.multikeyComponents[i]!].map((c) => parts.slice(0, c + 1).join('.'));
}

/**
 * The scan direction in which `index` (with `bounds`) yields documents in `sortKeys` order, or 0.
 * Index fields the bounds pin to one value (and that hold no arrays) are skipped and may be
 * left out of the sort; a multikey field cannot provide order.
 */
function providedDirection(index: Index, bounds: IntervalList[] | null, sortKeys: SortKey[], collator: Collator | null): 1 | -1 | 0 {
  if (index.kind !== IndexKinds.btree || !sameCollation(index.collation, specOf(collator))) return 0;
  // A sort field the bounds pin to one value (on a path no document has an array on) is constant.
  const fixed = new Set<string>();
  if (bounds) {
    index.fields.forEach((field, i) => {
      const b = bounds[i]!;
      if (b.length === 1 && isPoint(b[0]!, index.compareValue) && !index.isMultikeyField(i)) fixed.add(field);
    });
  }
  const keys = sortKeys.filter((k) => !fixed.has(k.path));
  let pos = 0;
  let dir: 1 | -1 | 0 = 0;
  for (const key of keys) {
    while (pos < index.fields.length && index.fields[pos] !== key.path && fixed.has(index.fields[pos]!)) pos++;
    if (pos >= index.fields.length || index.fields[pos] !== key.path) return 0;
    if (index.isMultikeyField(pos)) return 0;
    const d = (key.direction * index.directions[pos]!) as 1 | -1;
    if (dir === 0) dir = d;
    else if (dir !== d) return 0;
    pos++;
  }
  return dir === 0 ? 1 : dir;
}

/** True when every document `analysis` can match is in `index` (sparse and partial indexes). */
function coversQuery(index: Index, analysis: FilterAnalysis): boolean {
  if (index.sparse) {
    const excludesMissing = analysis.predicates.some((p) => index.fields.includes(p.path) && !p.matchesMissing);
    if (!excludesMissing) return false;
  }
  if (index.partialFilter) return impliesFilter(analysis, index.spec.partialFilterExpression as Document, index);
  return true;
}

/**
 * A conservative test that every document matching `analysis` matches `filter` (the partial
 * filter of `index`, under its collation: string conditions imply only under the same one).
 */
function impliesFilter(analysis: FilterAnalysis, filter: Document, index: Index): boolean {
  const required = analyzeFilter(filter, index.collator);
  const sameOrder = sameCollation(index.collation, specOf(analysis.collator));
  if (required.others.length > 0) {
    // An `$or` (or other) in the partial filter is implied only by the same conjunct in the query.
    for (const other of required.others) {
      if (!analysis.others.some((o) => valuesEqual(o.display, other.display))) return false;
    }
  }
  return required.predicates.every((need) =>
    analysis.predicates.some((have) => {
      if (have.path !== need.path) return false;
      if ((need.collatable || have.collatable) && !sameOrder) return false;
      if (have.op === need.op && valuesEqual(have.value, need.value)) return true;
      if (need.op === '$exists') return need.display[need.path] !== undefined && !('$not' in (need.display[need.path] as Document)) && !have.matchesMissing;
      if (!need.exact || !need.bounds || !have.bounds) return false;
      return isSubset(have.bounds, need.bounds, index.compareValue);
    }),
  );
}

function isSubset(inner: IntervalList, outer: IntervalList, cmp: (a: unknown, b: unknown) => number): boolean {
  const both = intersect(inner, outer, cmp);
  return both.length === inner.length && both.every((b, i) => valuesEqual(b.start, inner[i]!.start) && valuesEqual(b.end, inner[i]!.end) && b.startInclusive === inner[i]!.startInclusive && b.endInclusive === inner[i]!.endInclusive);
}

/**
 * The planner's rule (README.md): among the visible B-tree indexes that hold every document the
 * query can match, keep those with bounds on their first field or that provide the sort; pick the
 * one whose bounds hold the fewest keys (counted in the index), then the one providing the sort,
 * then the one bounding more fields, then a unique one, then the first in catalog order.
 */
function chooseIndex(coll: Collection, analysis: FilterAnalysis, sortKeys: SortKey[], indexFilter: IndexFilterEntry | null): Candidate | null {
  const candidates: Candidate[] = [];
  for (const index of coll.allIndexes()) {
    if (index.wildcard !== null && !index.hidden && coversQuery(index, analysis) && (indexFilter === null || filterAllows(indexFilter, index))) {
      const w = asCandidate(wildcardCandidate(index, analysis, sortKeys));
      if (w !== null) candidates.push(w);
      continue;
    }
    if (!index.queryable || !coversQuery(index, analysis)) continue;
    if (indexFilter !== null && !filterAllows(indexFilter, index)) continue;
    const c = candidateFor(index, analysis, sortKeys, false);
    if (isAllValues(c.bounds[0]!) && c.sortDirection === 0) continue;
    candidates.push(c);
  }
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return candidates[0]!;
  const scored = candidates.map((c, order) => ({ c, order, keys: estimateKeys(c.index, c.bounds) }));
  scored.sort(
    (a, b) =>
      a.keys - b.keys ||
      Number(b.c.sortDirection !== 0) - Number(a.c.sortDirection !== 0) ||
      b.c.boundedFields - a.c.boundedFields ||
      Number(b.c.index.unique) - Number(a.c.index.unique) ||
      a.order - b.order,
  );
  return scored[0]!.c;
}

/** FETCH + IXSCAN for a chosen candidate, or COLLSCAN. */
function accessFor(chosen: Candidate | null, analysis: FilterAnalysis, parsed: () => Document): PlanNode {
  if (!chosen) return collScan(1, parsed);
  return fetch(scanOf(chosen), () => residual(analysis, chosen.exactlyUsed));
}

/** The filter left for FETCH once `exactlyUsed` predicates are answered by the bounds. */
function residual(analysis: FilterAnalysis, exactlyUsed: Set<PathPredicate>): Document | null {
  const items = [
    ...analysis.predicates.filter((p) => !exactlyUsed.has(p)).map((p) => ({ display: p.display, kind: p.kind, path: p.path })),
    ...analysis.others,
  ];
  const doc = combine(items);
  return Object.keys(doc).length > 0 ? doc : null;
}

/** FETCH over OR of one index scan per branch of a rooted `$or`, when every branch has an index. */
function orPlan(coll: Collection, analysis: FilterAnalysis, indexFilter: IndexFilterEntry | null): FetchNode | null {
  const scans: IndexScanNode[] = [];
  let exact = true;
  for (const branch of analysis.orBranches!) {
    const sub = analyzeFilter(branch, analysis.collator);
    const chosen = chooseIndex(coll, sub, [], indexFilter);
    if (!chosen || isAllValues(chosen.bounds[0]!)) return null;
    scans.push(indexScan(chosen.index, chosen.bounds, null, 1, chosen.keyPattern));
    if (sub.others.length > 0 || sub.predicates.some((p) => !chosen.exactlyUsed.has(p))) exact = false;
  }
  const or: OrNode = { stage: 'OR', inputs: scans, stats: newStats(), dupsTested: 0, dupsDropped: 0 };
  return fetch(or, () => (exact ? null : { $or: analysis.orBranches!.map((b) => normaliseFilter(b, analysis.collator)) }));
}
