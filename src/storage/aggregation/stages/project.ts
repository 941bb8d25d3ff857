/**
 * `$project` (mongo/src/mongo/db/pipeline/document_source_project.cpp): the
 * projection grammar of projection_ast.ts with aggregation policies (no find-only operators,
 * nested arrays not descended). Parse errors carry mongod's "Invalid $project :: caused by ::"
 * context (`$unset`, an exclusion `$project`, is unset.ts). Computed fields are parsed in the pipeline's
 * scope, so they read the command's `let` variables like any other stage's expressions.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { Scope } from '../../expression/scope.js';
import { withContext } from '../../expression/field_path.js';
import { isDocument } from '../../values/paths.js';
import { parseProjection } from '../../projection/projection_ast.js';
import { buildProjection, type ProjectionFn } from '../../projection/projection_executor.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';
import { projectionStage } from './_internal.js';

/** Compiles a `$project` specification into a per-document function (expressions parsed in `scope`). */
export function compileAggregateProjection(spec: Document, scope: Scope = Scope.root()): ProjectionFn {
  return withContext('Invalid $project', () => {
    if (Object.keys(spec).length === 0) {
      throw new CommandError(51272, 'projection specification must have at least one field');
    }
    return buildProjection(parseProjection(spec, 'aggregate', null, scope), 'aggregate');
  });
}

/** `{$project: <specification>}`. */
export const project: StageDefinition = {
  name: '$project',
  constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError(15969, '$project specification must be an object');
    return projectionStage(compileAggregateProjection(spec, ctx.expressions.scope), ctx.expressions);
  },
};
