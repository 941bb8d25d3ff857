/**
 * The one optimiser: what the query layer absorbs from the front of a pipeline, decided once for
 * both `aggregate` (which runs it) and `explain` (which describes it), so that explain shows the
 * plan aggregate runs. The leading `$match` stages (their filters joined by `$and`, their
 * predicates as the stages parsed them), then a `$sort`, then a `$skip`, then a `$limit`, in that
 * order, become one query (filter, sort, skip, limit) that the planner may answer from an index;
 * the other stages run on its documents. A pipeline whose first stage makes its own documents
 * (`$documents`, `$collStats`) gives the query layer nothing.
 */
import type { Document } from '../../bson/library.js';
import type { ExpressionContext } from '../expression/context.js';
import type { Predicate } from '../query/compile_filter.js';
import type { ParsedPipeline, ParsedStage } from './stage.js';
import type { LimitInstance } from './stages/limit.js';
import { compileMatchFilter, type MatchInstance } from './stages/match.js';
import type { SkipInstance } from './stages/skip.js';
import type { SortInstance } from './stages/sort.js';

/** What the query layer is asked for. */
export interface AbsorbedQuery {
  /** The leading `$match` filters (`$and` of several); `{}` for none. */
  readonly filter: Document;
  /** Their predicate as the `$match` stages parsed it; null when there is none. */
  readonly predicate: Predicate | null;
  readonly sort: Document | undefined;
  readonly skip: number;
  /** 0: no limit. */
  readonly limit: number;
}

/** A pipeline split between the query layer and its stages. */
export interface OptimizedPipeline {
  /** What the query layer reads; null when the first stage makes its own documents. */
  readonly query: AbsorbedQuery | null;
  /** The stages left to run on the query's documents. */
  readonly rest: readonly ParsedStage[];
}

/** Decides what the query layer absorbs of `pipeline`, parsed in `expressions`. */
export function optimize(pipeline: ParsedPipeline, expressions: ExpressionContext): OptimizedPipeline {
  const stages = pipeline.stages;
  if (stages[0]?.definition.constraints.input === 'none') return { query: null, rest: stages };
  let i = 0;
  const matches: MatchInstance[] = [];
  while (i < stages.length && stages[i]!.name === '$match') matches.push(stages[i++]!.instance as MatchInstance);
  let sort: Document | undefined;
  // A sort by metadata (`{$meta: ...}`) orders what the stages make, not what the query reads.
  if (i < stages.length && stages[i]!.name === '$sort' && !sortsByMetadata((stages[i]!.instance as SortInstance).sort)) sort = (stages[i++]!.instance as SortInstance).sort;
  let skip = 0;
  if (i < stages.length && stages[i]!.name === '$skip') skip = Number((stages[i++]!.instance as SkipInstance).skip);
  let limit = 0;
  if (i < stages.length && stages[i]!.name === '$limit') limit = Number((stages[i++]!.instance as LimitInstance).limit);
  let filter: Document = {};
  let predicate: Predicate | null = null;
  if (matches.length === 1) ({ filter, predicate } = matches[0]!);
  else if (matches.length > 1) {
    // One predicate of the joined filters, so that the planner and the stored-bytes tests see it whole.
    filter = { $and: matches.map((m) => m.filter) };
    predicate = compileMatchFilter(filter, expressions);
  }
  return { query: { filter, predicate, sort, skip, limit }, rest: stages.slice(i) };
}

/** True when a sort specification has a `{$meta: ...}` key. */
function sortsByMetadata(spec: Document): boolean {
  for (const key in spec) {
    const v = spec[key];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && '$meta' in (v as object)) return true;
  }
  return false;
}
