/**
 * The read path of pipelines, shared by `aggregate`, the reads of views (find, count, distinct on
 * a view) and explain: the pipeline is parsed and checked, the optimiser (storage/aggregation/
 * optimize.ts) decides what the query layer absorbs, the planner plans that query, and the other
 * stages run on the documents the plan produces. Explain describes exactly this plan.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { pipelineFields } from '../../storage/aggregation/dependencies.js';
import { optimize, type OptimizedPipeline } from '../../storage/aggregation/optimize.js';
import { parsePipeline, runStages, type PipelinePlace } from '../../storage/aggregation/pipeline.js';
import type { ParsedPipeline } from '../../storage/aggregation/stage.js';
import type { PipelineParseContext } from '../../storage/aggregation/stage.js';
import { documentFields, type StoredDocument } from '../../storage/record.js';
import type { Collection } from '../../storage/collection.js';
import { executePlan, forEachPlanRecord } from '../../storage/planner/execute.js';
import { planQuery, type QueryPlan } from '../../storage/planner/plan.js';
import { ALWAYS_TRUE, predicateText } from '../../storage/query/compile_filter.js';
import { scoredDocument } from '../../storage/planner/text.js';
import type { Collator } from '../../storage/values/collator.js';
import type { TimeLimit } from './time_limit.js';
import { CosmosRequestTimeout } from '../../cosmos/rules/request_time_limit.js';

/** What a pipeline reads and how it is parsed. */
export interface PipelineRequest {
  /** The stages, a view's first (`resolveView`). */
  readonly stages: readonly Document[];
  readonly ctx: PipelineParseContext;
  /** The collection read (undefined when it does not exist, or for `{aggregate: 1}`). */
  readonly coll: Collection | undefined;
  readonly hint?: unknown;
  readonly collator: Collator | null;
  readonly place?: PipelinePlace;
}

/** A pipeline ready to run: parsed, optimised, its query planned. */
export interface PreparedPipeline {
  readonly parsed: ParsedPipeline;
  readonly optimized: OptimizedPipeline;
  /** The plan of the query the optimiser absorbed; null when the first stage makes its own documents. */
  readonly plan: QueryPlan | null;
  readonly coll: Collection | undefined;
}

/** Parses, checks and optimises a pipeline, and plans its query. */
export function preparePipeline(req: PipelineRequest): PreparedPipeline {
  const parsed = parsePipeline(req.stages, req.ctx, req.place ?? 'aggregate');
  const optimized = optimize(parsed, req.ctx.expressions);
  const query = optimized.query;
  const plan =
    query === null
      ? null
      : planQuery(req.coll, { filter: query.filter, sort: query.sort, skip: query.skip, limit: query.limit, hint: req.coll ? req.hint : undefined, collator: req.collator });
  return { parsed, optimized, plan, coll: req.coll };
}

/** How a prepared pipeline runs. */
export interface RunOptions {
  readonly now: () => number;
  /** Counts what explain shows in the plan's nodes. */
  readonly explain?: boolean;
  /** Told of each record the plan produces, before the stages see its document. */
  readonly onRecord?: (rec: StoredDocument) => void;
  /** Told of each document stage `i` of the optimised rest produces (explain's `nReturned`). */
  readonly onStageOutput?: (i: number) => void;
  /** The command's maxTimeMS budget, checked between documents (50 once spent). */
  readonly timeLimit?: TimeLimit;
  /** The bytes the query layer's blocking sort may hold (`allowDiskUse: false`); absent: no limit. */
  readonly sortMemoryLimitBytes?: number;
}

/**
 * The documents a prepared pipeline produces, lazily: the plan's records (decoded only as far
 * as the stages read them), through the other stages. Errors of a running pipeline carry mongod's
 * executor context.
 */
export function runPipeline(prep: PreparedPipeline, options: RunOptions): Iterable<Document> {
  const { plan, coll } = prep;
  const { query, rest } = prep.optimized;
  let source: Iterable<Document> = [];
  let stages = rest;
  if (plan !== null && coll !== undefined && query !== null) {
    const execution = {
      coll,
      predicate: query.predicate ?? ALWAYS_TRUE,
      now: options.now,
      explain: options.explain,
      sortMemoryLimitBytes: options.sortMemoryLimitBytes,
    };
    // The fields the stages read of each document, when known: only those are decoded.
    const needed = pipelineFields(rest.map((s) => s.stage));
    const onRecord = options.onRecord;
    const timeLimit = options.timeLimit;
    const first = rest[0]?.instance;
    // A $text query's matches carry their text scores: the stages read documents (`scoredDocument`).
    const text = predicateText(execution.predicate);
    if (first?.runRecords !== undefined && text === null) {
      // The first stage reads the plan's records itself, handed to it in one loop (the time
      // limit checked before each, as `checked` does).
      const forEach = (visit: (rec: StoredDocument) => void): void => {
        const each = timeLimit === undefined && onRecord === undefined ? visit : (rec: StoredDocument) => {
          timeLimit?.check();
          onRecord?.(rec);
          visit(rec);
        };
        forEachPlanRecord(plan, execution, each);
      };
      source = first.runRecords(forEach, needed);
      const onOutput = options.onStageOutput;
      if (onOutput !== undefined) source = countedOutput(source, () => onOutput(0));
      stages = rest.slice(1);
    } else {
      const records = executePlan(plan, execution);
      const limited = timeLimit ? timeLimit.checked(records) : records;
      source = (function* () {
        for (const rec of limited) {
          onRecord?.(rec);
          yield text === null ? documentFields(rec, needed) : scoredDocument(rec, text);
        }
      })();
    }
  }
  const onStageOutput = options.onStageOutput;
  const offset = rest.length - stages.length;
  const output = runStages(stages, source, onStageOutput && offset > 0 ? (i) => onStageOutput(i + offset) : onStageOutput);
  return withExecutorContext(options.timeLimit ? options.timeLimit.timed(output) : output);
}

/** `docs`, `onOutput` told of each. */
function* countedOutput(docs: Iterable<Document>, onOutput: () => void): Generator<Document> {
  for (const doc of docs) {
    onOutput();
    yield doc;
  }
}

/**
 * True when each document the pipeline returns comes from the record the plan produced last
 * (every stage after the query streams): a cursor can then re-check that record on getMore.
 */
export function followsRecords(prep: PreparedPipeline): boolean {
  return prep.plan !== null && prep.coll !== undefined && prep.optimized.rest.every((s) => s.definition.constraints.stream === 'streaming');
}

/** Runtime errors of a running pipeline carry mongod's executor prefix (parse errors, and Cosmos DB's 60 s answer, do not). */
export function* withExecutorContext(results: Iterable<Document>): Generator<Document> {
  try {
    yield* results;
  } catch (err) {
    if (err instanceof CommandError && !err.message.startsWith('PlanExecutor error') && !(err instanceof CosmosRequestTimeout)) {
      throw new CommandError(err.code, `PlanExecutor error during aggregation :: caused by :: ${err.message}`, err.extra);
    }
    throw err;
  }
}
