/**
 * Rule `unsupportedStages`: a stage the server version's feature-support page does not list as
 * supported answers 40324 "Unrecognized pipeline stage name: '$x'", as Azure Cosmos DB for
 * MongoDB answers (e.g. $bucket, $bucketAuto, $graphLookup, $collStats, $currentOp,
 * $indexStats, $listSessions, $listLocalSessions at every version; $unionWith and
 * $setWindowFields before 5.0; $densify, $fill and $documents before 6.0).
 */
import { CommandError } from '../../errors/command_error.js';
import type { CosmosVersionFacts } from '../versions.js';
import { forEachStage } from './_pipeline_walk.js';

/** Throws 40324 for the first stage of `pipeline` (nested ones included) that `version` does not support. */
export function cosmosCheckStages(pipeline: unknown, version: CosmosVersionFacts): void {
  forEachStage(pipeline, (name) => {
    if (name.startsWith('$') && !version.stages.has(name)) throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
  });
}
