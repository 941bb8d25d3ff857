/**
 * Aggregation pipelines: every stage is validated when the pipeline is compiled, then the
 * stages are chained as lazy iterator transforms (see README.md in this directory).
 * Stage parsers live one per file in `stages/`; this file is the one table of stage names.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { PipelineContext } from './pipeline_context.js';
import { parseAddFields } from './stages/add_fields.js';
import { parseCount } from './stages/count.js';
import { parseGroup } from './stages/group.js';
import { parseMatch } from './stages/match.js';
import { parseProject, parseUnset } from './stages/project.js';
import { parseReplaceRoot, parseReplaceWith } from './stages/replace_root.js';
import { parseLimit, parseSkip } from './stages/skip_limit.js';
import { parseSort } from './stages/sort.js';
import { parseSortByCount } from './stages/sort_by_count.js';
import type { Stage, StageParser } from './stages/types.js';
import { parseUnwind } from './stages/unwind.js';
import { isDocument } from '../values/paths.js';

/** Per-command pipeline state, and the lazy stage type. */
export type { PipelineContext } from './pipeline_context.js';
export type { Stage } from './stages/types.js';

/** The stages Mayfly implements, by name. */
const STAGES: Readonly<Record<string, StageParser>> = {
  $addFields: parseAddFields,
  $count: parseCount,
  $group: parseGroup,
  $limit: parseLimit,
  $match: parseMatch,
  $project: parseProject,
  $replaceRoot: parseReplaceRoot,
  $replaceWith: parseReplaceWith,
  $set: parseAddFields,
  $skip: parseSkip,
  $sort: parseSort,
  $sortByCount: parseSortByCount,
  $unset: parseUnset,
  $unwind: parseUnwind,
};

/** Stages mongod knows that Mayfly does not implement yet (answered with 238 NotImplemented). */
const UNSUPPORTED_STAGES = new Set([
  '$bucket',
  '$bucketAuto',
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$currentOp',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$geoNear',
  '$graphLookup',
  '$indexStats',
  '$listClusterCatalog',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$lookup',
  '$merge',
  '$out',
  '$planCacheStats',
  '$querySettings',
  '$queryStats',
  '$rankFusion',
  '$redact',
  '$sample',
  '$score',
  '$scoreFusion',
  '$search',
  '$searchMeta',
  '$setWindowFields',
  '$shardedDataDistribution',
  '$unionWith',
  '$vectorSearch',
]);

/** The stages allowed in a pipeline-style update. */
export const UPDATE_PIPELINE_STAGES: ReadonlySet<string> = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
]);

/** The name of a stage document, validating its shape (14, 40323). */
export function stageName(stage: unknown): string {
  if (!isDocument(stage)) {
    throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
  }
  const keys = Object.keys(stage);
  if (keys.length !== 1) {
    throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
  }
  return keys[0]!;
}

/** Whether Mayfly implements a stage name, knows it as unsupported, or does not know it. */
export function stageKind(name: string): 'implemented' | 'unsupported' | 'unknown' {
  if (STAGES[name] !== undefined) return 'implemented';
  return UNSUPPORTED_STAGES.has(name) ? 'unsupported' : 'unknown';
}

/** Compiles one stage document (`{$name: spec}`). */
export function compileStage(stage: Document, ctx: PipelineContext): Stage {
  const name = stageName(stage);
  const parser = STAGES[name];
  if (parser === undefined) {
    if (UNSUPPORTED_STAGES.has(name)) {
      throw new CommandError('NotImplemented', `${name} is not supported by Mayfly yet`);
    }
    throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
  }
  return parser(stage[name], ctx, name);
}

/** Compiles a pipeline; every stage is validated before any document is read. */
export function compilePipeline(stages: Document[], ctx: PipelineContext): Stage {
  const compiled = stages.map((s) => compileStage(s, ctx));
  return (input) => compiled.reduce<Iterable<Document>>((acc, stage) => stage(acc), input);
}
