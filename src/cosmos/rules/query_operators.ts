/**
 * Rule `queryOperators`: the query operators the server version's feature-support page marks
 * unsupported (every page: `$where`, `$text`, `$jsonSchema`, the `$bits*` operators and the
 * legacy shapes `$box`, `$center`, `$centerSphere`, `$polygon`) are refused with 115
 * CommandNotSupported, the error-codes page's code for "The request attempted isn't supported"
 * (the pages give no text). Every filter of every command is checked, through one walker
 * (`_command_filters.ts`): find, aggregate's `$match` and `$geoNear` (nested pipelines included),
 * count, distinct, update, delete, findAndModify, bulkWrite, explain. A filter is walked through
 * $and/$or/$nor, $not, $elemMatch and $geoWithin/$geoIntersects.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CosmosVersionFacts } from '../versions.js';
import { forEachCommandPart, forEachPipelineFilter } from './_command_filters.js';

/** The operators whose value holds more query (or geo shape) operators. */
const NESTING = new Set(['$and', '$or', '$nor', '$not', '$elemMatch', '$geoWithin', '$geoIntersects', '$within']);

/** Throws 115 for the first operator of `filter` that `version` refuses. */
export function cosmosCheckFilter(filter: unknown, version: CosmosVersionFacts): void {
  if (filter === null || typeof filter !== 'object') return;
  if (Array.isArray(filter)) {
    for (const item of filter) cosmosCheckFilter(item, version);
    return;
  }
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (version.refusedQueryOperators.has(key)) throw new CommandError('CommandNotSupported', `The query operator ${key} is not supported.`);
    if (NESTING.has(key) || !key.startsWith('$')) cosmosCheckFilter(value, version);
  }
}

/** `cosmosCheckFilter` on every filter of the command `name` with `body` (pipelines included). */
export function cosmosCheckCommandFilters(name: string, body: Document, version: CosmosVersionFacts): void {
  forEachCommandPart(name, body, {
    filter: (filter) => cosmosCheckFilter(filter, version),
    pipeline: (pipeline) => forEachPipelineFilter(pipeline, (filter) => cosmosCheckFilter(filter, version)),
  });
}
