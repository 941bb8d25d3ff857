/**
 * A plan tree as explain describes it, in mongod 8's shape (plan_explainer_impl.cpp
 * `statsToBSON`, plan_explainer_express.cpp): `queryPlanner.winningPlan` and
 * `executionStats.executionStages` from the same nodes, with the counters the execution filled.
 *
 * Field order per stage: `isCached` (root only), `stage`, `filter`, then with execution stats
 * `nReturned`, `executionTimeMillisEstimate`, `works`, `advanced`, `needTime`, `needYield`,
 * `saveState`, `restoreState`, `isEOF`, then the stage's own fields, then `inputStage(s)`.
 * Time is not measured (time is injected in Mayfly): every duration is 0.
 */
import { explainShapeText } from './query_shape.js';
import { createHash } from 'node:crypto';
import type { Document } from '../../bson/library.js';
import { formatValue } from '../values/format.js';
import { formatInterval, reverseInterval } from './intervals.js';
import type { PlanNode, QueryPlan, StageStats } from './plan.js';

/** How much explain tells. */
export const ExplainVerbosities = ['queryPlanner', 'executionStats', 'allPlansExecution'] as const;
/** One of `ExplainVerbosities`. */
export type ExplainVerbosity = (typeof ExplainVerbosities)[number];

/** The blocking sort memory limit mongod reports (internalQueryMaxBlockingSortMemoryUsageBytes). */
export const SORT_MEMORY_LIMIT_BYTES = 104857600;

/** A stage a command puts above the query plan (UPDATE, DELETE, COUNT, …). */
export interface WrapperStage {
  readonly stage: string;
  /** Fields shown at every verbosity, after `stage`. */
  readonly fields?: Document;
  /** Fields shown with execution stats, after the common counters. */
  readonly execFields?: Document;
  readonly input?: ExplainNode;
  readonly stats: StageStats;
}

/** A node explain can describe. */
export type ExplainNode = PlanNode | WrapperStage;

/** Fresh counters for a wrapper stage. */
export function wrapperStats(): StageStats {
  return { works: 0, advanced: 0, needTime: 0, isEOF: 0 };
}

/** Totals over a plan tree (explain's `totalKeysExamined`, `totalDocsExamined`). */
export interface PlanSummary {
  nReturned: number;
  totalKeysExamined: number;
  totalDocsExamined: number;
}

/** Sums the counters of a plan tree. */
export function summarize(root: ExplainNode): PlanSummary {
  const out: PlanSummary = { nReturned: root.stats.advanced, totalKeysExamined: 0, totalDocsExamined: 0 };
  const visit = (node: ExplainNode): void => {
    switch (node.stage) {
      case 'IXSCAN':
        out.totalKeysExamined += (node as Extract<PlanNode, { stage: 'IXSCAN' }>).keysExamined;
        return;
      case 'COLLSCAN':
        out.totalDocsExamined += (node as Extract<PlanNode, { stage: 'COLLSCAN' }>).docsExamined;
        return;
      case 'EXPRESS_IXSCAN': {
        const n = node as Extract<PlanNode, { stage: 'EXPRESS_IXSCAN' }>;
        out.totalKeysExamined += n.keysExamined;
        out.totalDocsExamined += n.docsExamined;
        return;
      }
      case 'FETCH':
        out.totalDocsExamined += (node as Extract<PlanNode, { stage: 'FETCH' }>).docsExamined;
        break;
      default:
        break;
    }
    for (const child of children(node)) visit(child);
  };
  visit(root);
  return out;
}

function children(node: ExplainNode): ExplainNode[] {
  if ('inputs' in node) return node.inputs;
  if ('input' in node && node.input) return [node.input];
  return [];
}

/** One stage (and its inputs) as explain shows it. */
export function stageDocument(node: ExplainNode, verbosity: ExplainVerbosity, root = true): Document {
  const exec = verbosity !== 'queryPlanner';
  const out: Document = {};
  if (root) out.isCached = false;
  out.stage = node.stage;
  if (node.stage === 'EXPRESS_IXSCAN') {
    const n = node as Extract<PlanNode, { stage: 'EXPRESS_IXSCAN' }>;
    out.keyPattern = formatValue(n.index.keyPattern);
    out.indexName = n.index.name;
    if (exec) {
      out.keysExamined = n.keysExamined;
      out.docsExamined = n.docsExamined;
      out.nReturned = n.stats.advanced;
    }
    return out;
  }
  if ('filter' in node && node.filter) out.filter = node.filter;
  if ('fields' in node && node.fields && node.stage.startsWith('EXPRESS_')) {
    // Express write stages: no common counters (plan_explainer_express.cpp).
    Object.assign(out, node.fields);
    if (exec) Object.assign(out, node.execFields ?? {});
    return out;
  }
  if (exec) {
    const s = workCounters(node);
    Object.assign(out, {
      nReturned: s.advanced,
      executionTimeMillisEstimate: 0,
      works: s.works,
      advanced: s.advanced,
      needTime: s.needTime,
      needYield: 0,
      saveState: 0,
      restoreState: 0,
      isEOF: s.isEOF,
    });
  }
  switch (node.stage) {
    case 'COLLSCAN': {
      const n = node as Extract<PlanNode, { stage: 'COLLSCAN' }>;
      out.direction = n.direction === 1 ? 'forward' : 'backward';
      if (exec) out.docsExamined = n.docsExamined;
      break;
    }
    case 'FETCH': {
      const n = node as Extract<PlanNode, { stage: 'FETCH' }>;
      if (exec) {
        out.docsExamined = n.docsExamined;
        out.alreadyHasObj = 0;
      }
      break;
    }
    case 'IXSCAN':
      Object.assign(out, indexScanFields(node as Extract<PlanNode, { stage: 'IXSCAN' }>, exec));
      break;
    case 'OR': {
      const n = node as Extract<PlanNode, { stage: 'OR' }>;
      if (exec) {
        out.dupsTested = n.dupsTested;
        out.dupsDropped = n.dupsDropped;
      }
      break;
    }
    case 'LIMIT':
      out.limitAmount = (node as Extract<PlanNode, { stage: 'LIMIT' }>).amount;
      break;
    case 'SKIP':
      out.skipAmount = (node as Extract<PlanNode, { stage: 'SKIP' }>).amount;
      break;
    case 'PROJECTION_SIMPLE':
    case 'PROJECTION_DEFAULT':
      out.transformBy = (node as Extract<PlanNode, { transformBy: Document }>).transformBy;
      break;
    case 'SORT': {
      const n = node as Extract<PlanNode, { stage: 'SORT' }>;
      out.sortPattern = n.pattern;
      out.memLimit = SORT_MEMORY_LIMIT_BYTES;
      if (n.limitAmount > 0) out.limitAmount = n.limitAmount;
      out.type = 'simple';
      if (exec) {
        out.totalDataSizeSorted = n.totalDataSizeSorted;
        out.usedDisk = false;
        out.spills = 0;
        out.spilledDataStorageSize = 0;
      }
      break;
    }
    default:
      if ('fields' in node && node.fields) Object.assign(out, node.fields);
      if (exec && 'execFields' in node && node.execFields) Object.assign(out, node.execFields);
      break;
  }
  const kids = children(node);
  if (kids.length === 1 && !('inputs' in node)) out.inputStage = stageDocument(kids[0]!, verbosity, false);
  else if ('inputs' in node) out.inputStages = kids.map((k) => stageDocument(k, verbosity, false));
  return out;
}

/**
 * A stage's `works`, `advanced`, `needTime` and `isEOF` in mongod's work model: every call to
 * work() either advances, needs time (a key or document rejected, a seek, a duplicate dropped, a
 * blocking stage consuming its input) or reports the end.
 */
function workCounters(node: ExplainNode): StageStats {
  const s = node.stats;
  let needTime = s.needTime;
  switch (node.stage) {
    case 'IXSCAN':
      needTime = Math.max(0, (node as Extract<PlanNode, { stage: 'IXSCAN' }>).keysExamined - s.advanced);
      break;
    case 'COLLSCAN':
      needTime = Math.max(0, (node as Extract<PlanNode, { stage: 'COLLSCAN' }>).docsExamined - s.advanced);
      break;
    case 'FETCH': {
      const input = workCounters((node as Extract<PlanNode, { stage: 'FETCH' }>).input);
      needTime = input.needTime + Math.max(0, input.advanced - s.advanced);
      break;
    }
    case 'OR': {
      const n = node as Extract<PlanNode, { stage: 'OR' }>;
      needTime = n.inputs.reduce((sum, i) => sum + workCounters(i).needTime, 0) + n.dupsDropped;
      break;
    }
    case 'SORT':
      needTime = workCounters((node as Extract<PlanNode, { stage: 'SORT' }>).input).works;
      break;
    case 'SKIP': {
      const input = workCounters((node as Extract<PlanNode, { stage: 'SKIP' }>).input);
      needTime = input.needTime + Math.max(0, input.advanced - s.advanced);
      break;
    }
    case 'LIMIT':
    case 'PROJECTION_SIMPLE':
    case 'PROJECTION_DEFAULT':
    case 'SUBPLAN':
      needTime = workCounters((node as Extract<PlanNode, { input: PlanNode }>).input).needTime;
      break;
    default:
      break;
  }
  return { works: s.advanced + needTime + s.isEOF, advanced: s.advanced, needTime, isEOF: s.isEOF };
}

function indexScanFields(node: Extract<PlanNode, { stage: 'IXSCAN' }>, exec: boolean): Document {
  const index = node.index;
  const out: Document = { keyPattern: node.keyPattern ?? index.keyPattern, indexName: index.name };
  if (index.collation) out.collation = index.collation;
  // A wildcard scan shows its expanded key pattern's fields, multikey by the paths met.
  const shown = node.keyPattern ? Object.keys(node.keyPattern) : index.fields;
  out.isMultiKey = index.wildcard ? shown.some((f) => f !== '$_path' && index.isMultikeyPath(f)) : index.multikey;
  const paths: Document = {};
  shown.forEach((field, i) => {
    const parts = field.split('.');
    if (index.wildcard) paths[field] = field === '$_path' ? [] : parts.map((_, c) => parts.slice(0, c + 1).join('.')).filter((p) => index.wildcardMultikeyPaths.has(p));
    else paths[field] = [...index.multikeyComponents[i]!].sort((a, b) => a - b).map((c) => parts.slice(0, c + 1).join('.'));
  });
  out.multiKeyPaths = paths;
  out.isUnique = index.unique;
  out.isSparse = index.sparse;
  out.isPartial = index.partialFilter !== null;
  out.indexVersion = typeof index.spec.v === 'number' ? index.spec.v : 2;
  out.direction = node.direction === 1 ? 'forward' : 'backward';
  const bounds: Document = {};
  if (node.bounds) {
    shown.forEach((field, i) => {
      const list = node.bounds![i]!;
      const visitingDescending = index.directions[i]! * node.direction === -1;
      const shown = visitingDescending ? [...list].reverse().map(reverseInterval) : list;
      bounds[field] = shown.map(formatInterval);
    });
  }
  out.indexBounds = bounds;
  if (exec) {
    out.keysExamined = node.keysExamined;
    out.seeks = node.seeks;
    out.dupsTested = node.dupsTested;
    out.dupsDropped = node.dupsDropped;
  }
  return out;
}

/** A short uppercase hex digest of `text` (`length` hex digits). */
function digest(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length).toUpperCase();
}


/** The hashes explain reports for a query shape. */
export function shapeHashes(parsedQuery: Document, extra: Document): { queryHash: string; planCacheKey: string; queryShapeHash: string } {
  const shape = explainShapeText(parsedQuery, extra);
  return { queryHash: digest(shape, 8), planCacheKey: digest(`key:${shape}`, 8), queryShapeHash: digest(`shape:${shape}`, 64) };
}

/** `queryPlanner` for a plan whose root is `winning`. */
export function queryPlannerSection(namespace: string, plan: QueryPlan, winning: ExplainNode, verbosity: ExplainVerbosity, shapeExtra: Document = {}): Document {
  const hashes = shapeHashes(plan.parsedQuery, shapeExtra);
  return {
    namespace,
    parsedQuery: plan.parsedQuery,
    indexFilterSet: plan.indexFilterSet,
    queryHash: hashes.queryHash,
    planCacheShapeHash: hashes.queryHash,
    planCacheKey: hashes.planCacheKey,
    optimizationTimeMillis: 0,
    maxIndexedOrSolutionsReached: false,
    maxIndexedAndSolutionsReached: false,
    maxScansToExplodeReached: false,
    prunedSimilarIndexes: false,
    winningPlan: stageDocument(winning, 'queryPlanner'),
    rejectedPlans: [],
  };
}

/** `executionStats` for an executed plan whose root is `winning`. */
export function executionStatsSection(winning: ExplainNode, verbosity: ExplainVerbosity): Document {
  const summary = summarize(winning);
  const out: Document = {
    executionSuccess: true,
    nReturned: summary.nReturned,
    executionTimeMillis: 0,
    totalKeysExamined: summary.totalKeysExamined,
    totalDocsExamined: summary.totalDocsExamined,
    executionStages: stageDocument(winning, verbosity),
  };
  if (verbosity === 'allPlansExecution') out.allPlansExecution = [];
  return out;
}
