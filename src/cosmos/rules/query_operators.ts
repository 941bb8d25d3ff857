/**
 * Rule `queryOperators`: the query operators the feature-support pages mark unsupported at every
 * version ($text: no text indexes; $where) are refused with 115 CommandNotSupported (the pages
 * give no text). The filter is walked through $and/$or/$nor and $elemMatch.
 */
import { CommandError } from '../../errors/command_error.js';
import type { CosmosVersionFacts } from '../versions.js';
import { forEachStage } from './_pipeline_walk.js';

/** Throws 115 for the first operator of `filter` that `version` refuses. */
export function cosmosCheckFilter(filter: unknown, version: CosmosVersionFacts): void {
  if (filter === null || typeof filter !== 'object') return;
  if (Array.isArray(filter)) {
    for (const item of filter) cosmosCheckFilter(item, version);
    return;
  }
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (version.refusedQueryOperators.has(key)) throw new CommandError('CommandNotSupported', `The query operator ${key} is not supported.`);
    if (key === '$and' || key === '$or' || key === '$nor' || key === '$elemMatch' || key === '$not' || !key.startsWith('$')) cosmosCheckFilter(value, version);
  }
}

/** `cosmosCheckFilter` on every `$match` of `pipeline` (nested pipelines included). */
export function cosmosCheckPipelineFilters(pipeline: unknown, version: CosmosVersionFacts): void {
  forEachStage(pipeline, (name, spec) => {
    if (name === '$match') cosmosCheckFilter(spec, version);
  });
}
