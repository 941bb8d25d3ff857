/**
 * Rule `expressionOperators`: the aggregation and projection operators the server version's
 * feature-support page marks unsupported are refused with 115 CommandNotSupported (no page gives
 * a text). Every page marks `$meta` unsupported, as an aggregation expression ("Text search
 * operator") and as a projection operator. The pages list no `$date*` arithmetic, `$getField` or
 * window-function rows at all (neither supported nor not), so nothing else is refused here.
 *
 * Checked in every pipeline of a command (`_command_filters.ts`) and in find's `projection` and
 * `sort` and findAndModify's `fields` and `sort`; the contents of `$literal` are data, not operators.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CosmosVersionFacts } from '../versions.js';
import { forEachCommandPart } from './_command_filters.js';

/** Throws 115 for the first operator inside `value` (a stage spec, a projection) that `version` refuses. */
export function cosmosCheckExpressions(value: unknown, version: CosmosVersionFacts): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) cosmosCheckExpressions(item, version);
    return;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return; // a BSON value
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (version.refusedExpressionOperators.has(key)) throw new CommandError('CommandNotSupported', `The operator ${key} is not supported.`);
    if (key !== '$literal') cosmosCheckExpressions(inner, version);
  }
}

/** `cosmosCheckExpressions` on the pipelines, projections and sorts of the command `name` with `body`. */
export function cosmosCheckCommandExpressions(name: string, body: Document, version: CosmosVersionFacts): void {
  if (name === 'find') {
    cosmosCheckExpressions(body.projection, version);
    cosmosCheckExpressions(body.sort, version);
  }
  if (name === 'findAndModify') {
    cosmosCheckExpressions(body.fields, version);
    cosmosCheckExpressions(body.sort, version);
  }
  if (name === 'explain' && body.explain !== null && typeof body.explain === 'object') {
    const inner = body.explain as Document;
    const innerName = Object.keys(inner)[0];
    if (innerName === 'find' || innerName === 'findAndModify') cosmosCheckCommandExpressions(innerName, inner, version);
  }
  forEachCommandPart(name, body, { filter: () => undefined, pipeline: (pipeline) => cosmosCheckExpressions(pipeline, version) });
}
