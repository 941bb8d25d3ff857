/**
 * `$unset` (document_source_project.cpp, `$unset` as an exclusion `$project`): removes a field
 * or a list of fields; its errors carry "Invalid $project :: caused by ::" as mongod's do.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { withContext } from '../../expression/field_path.js';
import { parseProjection } from '../../projection/projection_ast.js';
import { buildProjection, type ProjectionFn } from '../../projection/projection_executor.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';
import { projectionStage } from './_internal.js';

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

/** `{$unset: "a" | ["a", "b.c"]}`. */
export const unset: StageDefinition = {
  name: '$unset',
  constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
  parse: (spec, ctx) => projectionStage(compileUnset(spec), ctx.expressions),
};
