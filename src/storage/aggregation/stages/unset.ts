/**
 * `$unset` (document_source_project.cpp, `$unset` as an exclusion `$project`): removes a field
 * or a list of fields; its errors carry "Invalid $project :: caused by ::" as mongod's do.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { parseFieldPath, withContext } from '../../expression/field_path.js';
import { parseProjection } from '../../projection/projection_ast.js';
import { buildProjection, type ProjectionFn } from '../../projection/projection_executor.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';
import { projectionStage } from './_internal.js';

/** The deepest field path mongod takes. */
const MAX_FIELD_PATH_DEPTH = 200;

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
  // Checked over every field before any other check (mongod 8.2's order): an embedded null
  // byte (9527900), then a path deeper than 200 components (15), then each path's
  // FieldPath checks, then a field named twice (31250).
  const names = fields as string[];
  for (const f of names) if (f.includes('\0')) throw new CommandError(9527900, 'Field path cannot contain an embedded null byte');
  for (const f of names) {
    if (f.split('.').length > MAX_FIELD_PATH_DEPTH) throw new CommandError('Overflow', `FieldPath is too long. Maximum depth is ${MAX_FIELD_PATH_DEPTH}`);
  }
  for (const f of names) withContext('Invalid $project', () => parseFieldPath(f));
  const projection: Document = {};
  for (const f of names) {
    if (Object.prototype.hasOwnProperty.call(projection, f)) throw new CommandError(31250, `Path collision at ${f}`);
    Object.defineProperty(projection, f, { value: 0, enumerable: true, writable: true, configurable: true });
  }
  return withContext('Invalid $project', () => buildProjection(parseProjection(projection, 'aggregate'), 'aggregate'));
}

/** `{$unset: "a" | ["a", "b.c"]}`. */
export const unset: StageDefinition = {
  name: '$unset',
  constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
  parse: (spec, ctx) => projectionStage(compileUnset(spec), ctx.expressions),
};
