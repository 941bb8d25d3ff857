/**
 * The query filters and pipelines a command carries, for the rules that look at operators
 * (query_operators.ts, expression_operators.ts): one table of where each command keeps them, so
 * every command is checked the same way. Malformed fields are skipped: the command's own argument
 * checks answer them with mongod's errors.
 *
 * | command | filters | pipelines |
 * |---|---|---|
 * | find | `filter` | |
 * | aggregate | | `pipeline` ($match, $geoNear's query, nested $lookup/$unionWith/$facet pipelines) |
 * | count, distinct, findAndModify, mapReduce | `query` | |
 * | update | `updates[].q` | `updates[].u` when it is a pipeline |
 * | delete | `deletes[].q` | |
 * | bulkWrite | `ops[].filter` | `ops[].updateMods` when it is a pipeline |
 * | explain | those of the command it explains | |
 * | create (a view) | | `pipeline` |
 */
import type { Document } from '../../bson/library.js';
import { forEachStage } from './_pipeline_walk.js';

function isDoc(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a walk is told of: each filter (a query document) and each pipeline of the command. */
export interface CommandParts {
  filter(filter: Document): void;
  pipeline(pipeline: unknown[]): void;
}

function each(items: unknown, field: string, visit: (value: unknown) => void): void {
  if (!Array.isArray(items)) return;
  for (const item of items) if (isDoc(item)) visit(item[field]);
}

/** Calls `parts` for every filter and pipeline of the command `name` (its canonical name) with `body`. */
export function forEachCommandPart(name: string, body: Document, parts: CommandParts): void {
  const filter = (value: unknown): void => {
    if (isDoc(value)) parts.filter(value);
  };
  const pipeline = (value: unknown): void => {
    if (Array.isArray(value)) parts.pipeline(value);
  };
  switch (name) {
    case 'find':
      filter(body.filter);
      return;
    case 'aggregate':
      pipeline(body.pipeline);
      return;
    case 'count':
    case 'distinct':
    case 'findAndModify':
    case 'mapReduce':
      filter(body.query);
      if (name === 'findAndModify') pipeline(body.update);
      return;
    case 'update':
      each(body.updates, 'q', filter);
      each(body.updates, 'u', pipeline);
      return;
    case 'delete':
      each(body.deletes, 'q', filter);
      return;
    case 'bulkWrite':
      each(body.ops, 'filter', filter);
      each(body.ops, 'updateMods', pipeline);
      return;
    case 'create':
      pipeline(body.pipeline);
      return;
    case 'explain': {
      const inner = body.explain;
      if (!isDoc(inner)) return;
      const innerName = Object.keys(inner)[0];
      if (innerName !== undefined && innerName !== 'explain') forEachCommandPart(innerName, inner, parts);
      return;
    }
    default:
      return;
  }
}

/** The filters inside `pipeline` and its nested pipelines: each `$match`, and `$geoNear`'s `query`. */
export function forEachPipelineFilter(pipeline: unknown, visit: (filter: Document) => void): void {
  forEachStage(pipeline, (stage, spec) => {
    if (stage === '$match' && isDoc(spec)) visit(spec);
    if (stage === '$geoNear' && isDoc(spec) && isDoc(spec.query)) visit(spec.query);
  });
}
