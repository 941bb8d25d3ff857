/**
 * `$project` and `$unset` (mongo/src/mongo/db/pipeline/document_source_project.cpp): the
 * projection grammar of projection_ast.ts with aggregation policies (no find-only operators,
 * nested arrays not descended). Parse errors carry mongod's "Invalid $project :: caused by ::"
 * context; `$unset` is an exclusion `$project`. Computed fields are parsed in the pipeline's
 * scope, so they read the command's `let` variables like any other stage's expressions.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { Scope } from '../../expression/scope.js';
import { withContext } from '../../expression/field_path.js';
import { isDocument } from '../../values/paths.js';
import { parseProjection } from '../../projection/projection_ast.js';
import { buildProjection, type ProjectionFn } from '../../projection/projection_executor.js';
import type { PipelineContext } from '../pipeline_context.js';
import type { Stage, StageParser } from './types.js';

function projectionStage(apply: ProjectionFn, ctx: PipelineContext): Stage {
  const expressions = ctx.expressions;
  return function* project(input) {
    for (const doc of input) yield apply(doc, expressions.frame(doc));
  };
}

/** Compiles a `$project` specification into a per-document function (expressions parsed in `scope`). */
export function compileAggregateProjection(spec: Document, scope: Scope = Scope.root()): ProjectionFn {
  return withContext('Invalid $project', () => {
    if (Object.keys(spec).length === 0) {
      throw new CommandError(51272, 'projection specification must have at least one field');
    }
    return buildProjection(parseProjection(spec, 'aggregate', null, scope), 'aggregate');
  });
}

/** Parses `{$project: spec}`. */
export const parseProject: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) throw new CommandError(15969, '$project specification must be an object');
  return projectionStage(compileAggregateProjection(spec, ctx.expressions.scope), ctx);
};
/** Compiles `$unset`'s argument (a field or a list of fields) into an exclusion. */
export function compileUnset(spec: unknown): ProjectionFn {
  let fields: unknown[];
  if (typeof spec === 'string') fields = [spec];
  else if (Array.isArray(spec)) {
    if (spec.length === 0) {
      throw new CommandError(31119, '$unset specification must be a string or an array with at least one field');
    }
    if (spec.some((f) => typeof f !== 'string')) {
      throw new CommandError(31120, '$unset specification must be a string or an array containing only string values');
    }
    fields = spec;
  } else {
    throw new CommandError(31002, '$unset specification must be a string or an array');
  }
  const projection: Document = {};
  for (const f of fields) projection[f as string] = 0;
  return withContext('Invalid $project', () => buildProjection(parseProjection(projection, 'aggregate'), 'aggregate'));
}

/** Parses `{$unset: "a" | ["a", "b.c"]}`. */
export const parseUnset: StageParser = (spec, ctx) => projectionStage(compileUnset(spec), ctx);
