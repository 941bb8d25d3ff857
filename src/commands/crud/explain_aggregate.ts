/**
 * The explain of an aggregate (`explain` of it, or `aggregate` with `explain: true`): prepared
 * exactly as `aggregate` prepares it (aggregate_request.ts: the same parse, the same optimiser,
 * the same plan), so that it describes the plan aggregate runs. The query layer's plan for what
 * the optimiser absorbed is a find-like reply when that is the whole pipeline, else the first
 * entry (`$cursor`) of a `stages` array; at execution verbosities the pipeline runs, counting,
 * with no writer: `$out` and `$merge` are described, never performed.
 */
import type { Document } from '../../bson/library.js';
import { executionStatsSection, queryPlannerSection, shapeHashes, summarize, type ExplainVerbosity } from '../../storage/planner/explain_output.js';
import type { CommandContext } from '../types.js';
import { prepareAggregate } from './aggregate_request.js';
import { SERVER_PARAMETERS, echo, explicitCollation, serverInfo } from './explain_common.js';
import { runPipeline } from './pipeline_exec.js';
import { aggregateShape, queryShapeHash as hashOfShape, stageShape } from '../../storage/planner/command_shape.js';
import { isDocument } from '../../storage/values/paths.js';

/**
 * The stages after the query that the plan cache keys a pipeline by (mongod's plan cache shape
 * of an aggregate: the stages pushed down to the query layer, and those that narrow the fields
 * it must produce): `$group` and what desugars to it, `$lookup`, `$project`, `$replaceRoot`,
 * `$setWindowFields`, `$densify`. Stages that pass every field through (`$unwind`, `$addFields`,
 * `$limit`, `$skip`, `$sample`, `$facet`, `$unionWith`, `$redact`, `$fill`, `$out`, `$merge`...)
 * leave the key as it is.
 */
const PLANNED_STAGES = new Set(['$group', '$bucket', '$bucketAuto', '$count', '$sortByCount', '$lookup', '$project', '$replaceRoot', '$replaceWith', '$setWindowFields', '$densify', '$sort']);

function plannedStages(stages: readonly Document[]): Document[] {
  return stages.filter((stage) => PLANNED_STAGES.has(Object.keys(stage)[0] ?? '')).map(stageShape);
}

/** explain's `queryShapeHash` of the aggregate `cmd` (run on `db`). */
function commandShapeHash(db: string, cmd: Document): string {
  const coll = typeof cmd.aggregate === 'string' ? cmd.aggregate : null;
  return hashOfShape(aggregateShape({ db, coll }, { ...cmd, pipeline: Array.isArray(cmd.pipeline) ? cmd.pipeline.filter(isDocument) : [] }));
}

/** The explain reply of the aggregate `cmd` (its arguments already checked) at `verbosity`. */
export function explainAggregate(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Document {
  const { prepared, readNs, stages } = prepareAggregate(ctx, cmd, false);
  const command = echo(cmd, ctx.db);
  delete command.explain;
  const server = serverInfo(ctx);
  const { plan, optimized } = prepared;
  const queryShapeHash = commandShapeHash(ctx.db, cmd);
  if (plan === null || optimized.query === null) {
    // The first stage makes its own documents: there is no query to plan. At the execution
    // verbosities the pipeline runs (writing nothing), each stage counting what it returns.
    let described: Document[] = [...stages];
    if (verbosity !== 'queryPlanner') {
      const counts = optimized.rest.map(() => 0);
      for (const _ of runPipeline(prepared, { now: ctx.now, explain: true, onStageOutput: (i) => counts[i]!++ })) {
        // drained: only the counts are kept
      }
      described = optimized.rest.map(({ stage }, i) => ({ ...stage, nReturned: counts[i]!, executionTimeMillisEstimate: 0 }));
    }
    return { explainVersion: '1', stages: described, queryShapeHash, serverInfo: server, serverParameters: { ...SERVER_PARAMETERS }, command };
  }
  const rest = optimized.rest;
  const exec = verbosity !== 'queryPlanner';
  const shape = { aggregate: true, sort: optimized.query.sort ?? null, collation: explicitCollation(cmd.collation), stages: plannedStages(rest.map(({ stage }) => stage)) };
  const hashes = shapeHashes(plan.parsedQuery, shape);
  const stageCounts = rest.map(() => 0);
  if (exec && prepared.coll) {
    for (const _ of runPipeline(prepared, { now: ctx.now, explain: true, onStageOutput: (i) => stageCounts[i]!++ })) {
      // drained: only the counts are kept
    }
  }
  const cursorSection: Document = { queryPlanner: queryPlannerSection(readNs, plan, plan.root, verbosity, shape) };
  if (exec) cursorSection.executionStats = executionStatsSection(plan.root, verbosity);
  if (rest.length === 0) {
    return { explainVersion: '1', ...cursorSection, queryShapeHash, serverInfo: server, serverParameters: { ...SERVER_PARAMETERS }, command };
  }
  const cursorStage: Document = { $cursor: cursorSection };
  if (exec) {
    cursorStage.nReturned = summarize(plan.root).nReturned;
    cursorStage.executionTimeMillisEstimate = 0;
  }
  const described = rest.map(({ stage }, i) => (exec ? { ...stage, nReturned: stageCounts[i]!, executionTimeMillisEstimate: 0 } : stage));
  return {
    explainVersion: '1',
    stages: [cursorStage, ...described],
    queryShapeHash,
    serverInfo: server,
    serverParameters: { ...SERVER_PARAMETERS },
    command,
  };
}
