/**
 * `$project` and `$unset` (mongo/src/mongo/db/pipeline/document_source_project.cpp): the
 * projection grammar of projection_ast.ts with aggregation policies (no find-only operators,
 * nested arrays not descended). Parse errors carry mongod's "Invalid $project :: caused by ::"
 * context; `$unset` is an exclusion `$project`.
 *
 * The projection parser (shared with find) compiles its expressions with no user variables in
 * scope, so the command's `let` variables are bound before it runs: `"$$x"` becomes
 * `{$literal: <value>}` (`"$$x.a"` the value at that path, an absent value `"$$REMOVE"`). They
 * are constants for the whole command, so this is exact.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { parseProjection } from '../../projection/projection_ast.js';
import { buildProjection, type ProjectionFn } from '../../projection/projection_executor.js';
import type { LetVariables } from '../../query/compile_query.js';
import { evaluatePath } from '../expression_core.js';
import { withContext } from '../field_path.js';
import { MISSING, isDocument } from '../value.js';
import { evalContextOf, type PipelineContext } from '../pipeline_context.js';
import type { Stage, StageParser } from './types.js';

function projectionStage(apply: ProjectionFn, ctx: PipelineContext): Stage {
  return function* project(input) {
    for (const doc of input) yield apply(doc, evalContextOf(ctx, doc));
  };
}

/** `"$$name.a.b"` with `name` a `let` variable → its value as a `$literal` (or `"$$REMOVE"`). */
function bindReference(ref: string, vars: LetVariables): unknown {
  const body = ref.slice(2);
  const dot = body.indexOf('.');
  const name = dot < 0 ? body : body.slice(0, dot);
  if (!vars.names.has(name)) return ref;
  let value = vars.values.get(name);
  if (dot >= 0) value = evaluatePath(value, body.slice(dot + 1).split('.'));
  return value === MISSING || value === undefined ? '$$REMOVE' : { $literal: value };
}

/** `spec` with every reference to a `let` variable bound (`$literal`/`$const` arguments kept). */
function bindLetVariables(spec: unknown, vars: LetVariables | undefined): unknown {
  if (vars === undefined) return spec;
  if (typeof spec === 'string') return spec.startsWith('$$') ? bindReference(spec, vars) : spec;
  if (Array.isArray(spec)) return spec.map((item) => bindLetVariables(item, vars));
  if (!isDocument(spec)) return spec;
  const out: Document = {};
  for (const key of Object.keys(spec)) {
    out[key] = key === '$literal' || key === '$const' ? spec[key] : bindLetVariables(spec[key], vars);
  }
  return out;
}

/** Compiles a `$project` specification into a per-document function. */
export function compileAggregateProjection(spec: Document): ProjectionFn {
  return withContext('Invalid $project', () => {
    if (Object.keys(spec).length === 0) {
      throw new CommandError(51272, 'projection specification must have at least one field');
    }
    return buildProjection(parseProjection(spec, 'aggregate'), 'aggregate');
  });
}

/** Parses `{$project: spec}`. */
export const parseProject: StageParser = (spec, ctx) => {
  if (!isDocument(spec)) throw new CommandError(15969, '$project specification must be an object');
  return projectionStage(compileAggregateProjection(bindLetVariables(spec, ctx.variables) as Document), ctx);
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
