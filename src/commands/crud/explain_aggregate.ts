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
import { SERVER_PARAMETERS, echo, serverInfo } from './explain_common.js';
import { runPipeline } from './pipeline_exec.js';

/** The explain reply of the aggregate `cmd` (its arguments already checked) at `verbosity`. */
export function explainAggregate(ctx: CommandContext, cmd: Document, verbosity: ExplainVerbosity): Document {
  const { prepared, readNs, stages } = prepareAggregate(ctx, cmd, false);
  const command = echo(cmd, ctx.db);
  delete command.explain;
  const server = serverInfo(ctx);
  const { plan, optimized } = prepared;
  if (plan === null || optimized.query === null) {
    // The first stage makes its own documents: there is no query to plan. At the execution
    // verbosities the pipeline runs (writing nothing), each stage counting what it returns.
    const { queryShapeHash } = shapeHashes({}, { aggregate: true, stages: stages.map((stage) => Object.keys(stage)[0] ?? '') });
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
  const shape = { aggregate: true, sort: optimized.query.sort ?? null };
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
    return { explainVersion: '1', ...cursorSection, queryShapeHash: hashes.queryShapeHash, serverInfo: server, serverParameters: { ...SERVER_PARAMETERS }, command };
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
    queryShapeHash: hashes.queryShapeHash,
    serverInfo: server,
    serverParameters: { ...SERVER_PARAMETERS },
    command,
  };
}
