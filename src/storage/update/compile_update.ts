/**
 * Updates: the entry point. An update is one of
 *   - a replacement document (no `$`-prefixed first field): the document becomes it, `_id`
 *     kept (object_replace_executor.cpp);
 *   - an operator document (`{$set: ...}`): see operator_update.ts;
 *   - a pipeline (array of `$set/$addFields/$unset/$project/$replaceRoot/$replaceWith`):
 *     the result replaces the document as a replacement would (pipeline_executor.cpp); the
 *     command's `let` variables and the statement's constants `c` are in scope.
 * Everything is validated in `compileUpdate`, in UpdateDriver::parse's order (array filters,
 * pipeline/arrayFilters, constants, replacement/multi, operators); `apply` never mutates its
 * input. The positional `$` resolves to `UpdateContext.matchedField`. The update's collation
 * (`collator`) is what operators, array filters and a pipeline's expressions compare strings by.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { cloneValue } from '../values/clone.js';
import { compareStrings, compareValues } from '../values/compare.js';
import type { Collator } from '../values/collator.js';
import { equalityFields } from '../query/compile_filter.js';
import { formatElement } from '../values/format.js';
import { parsePipeline, runStages } from '../aggregation/pipeline.js';
import { newPipelineContext } from '../aggregation/pipeline_context.js';
import { NO_VARIABLES, withConstants, type CommandVariables } from '../expression/let.js';
import { identicalDocuments } from './identical.js';
import { parseArrayFilters } from './array_filters.js';
import { applyOperatorUpdate, parseOperatorUpdate } from './operator_update.js';
import { compileTopLevelUpdate } from './top_level_update.js';
import type { CompiledUpdate, UpdateContext, UpdateResult } from './update_context.js';



const hasOwn = Object.prototype.hasOwnProperty;

/** `_id` values a document may not store (storage_validation.cpp, 53 InvalidIdField). */
export function assertStorableId(doc: Document): void {
  if (!hasOwn.call(doc, '_id')) return;
  const t = bsonTypeOf(doc._id);
  if (t === 'array' || t === 'regex' || t === 'undefined') {
    throw new CommandError('InvalidIdField', `The '_id' value cannot be of type ${t}`);
  }
}

/**
 * Replaces `original` by `replacement` as ObjectReplaceExecutor does: the original `_id` is
 * kept (in its place) when the replacement has none; a different `_id` is 66 ImmutableField.
 */
function replaceDocument(original: Document, replacement: Document): UpdateResult {
  let result: Document;
  if (hasOwn.call(replacement, '_id') || !hasOwn.call(original, '_id')) {
    result = cloneValue(replacement);
  } else {
    result = { _id: original._id };
    for (const key of Object.keys(replacement)) result[key] = cloneValue(replacement[key]);
  }
  assertStorableId(result);
  if (hasOwn.call(original, '_id') && hasOwn.call(result, '_id') && compareValues(original._id, result._id) !== 0) {
    throw new CommandError(
      'ImmutableField',
      `After applying the update, the (immutable) field '_id' was found to have been altered to ${formatElement('_id', result._id)}`,
    );
  }
  if (identicalDocuments(original, result)) return { doc: original, modified: false };
  return { doc: result, modified: true };
}

function compileReplacement(replacement: Document): CompiledUpdate {
  for (const key of Object.keys(replacement)) {
    if (key.charCodeAt(0) === 36) {
      throw new CommandError(
        'DollarPrefixedFieldName',
        `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    }
  }
  return { kind: 'replacement', positional: false, changedFields: null, apply: (doc) => replaceDocument(doc, replacement) };
}

function compileOperators(update: Document, arrayFilters: ReturnType<typeof parseArrayFilters>, collator: Collator | null): CompiledUpdate {
  const parsed = parseOperatorUpdate(update, arrayFilters, collator);
  return {
    kind: 'operators',
    positional: parsed.positional,
    changedFields: parsed.root.positional ? null : [...parsed.root.children.keys()],
    apply(doc, ctx) {
      const work = cloneValue(doc);
      const modified = applyOperatorUpdate(work, parsed, ctx);
      if (!modified) return { doc, modified: false };
      assertStorableId(work);
      return { doc: work, modified: true };
    },
  };
}

function compilePipelineUpdate(stages: Document[], vars: CommandVariables, collator: Collator | null): CompiledUpdate {
  // Every stage is parsed first (unknown stages are 40324, bad specifications their own
  // errors), then the stages an update does not allow are refused (the stage table says which).
  const pctx = newPipelineContext({ now: new Date(0), collator, variables: vars });
  const compiled = parsePipeline(stages, pctx, 'update').stages;
  return {
    kind: 'pipeline',
    positional: false,
    changedFields: null,
    apply(doc, ctx) {
      pctx.expressions.runtime.now = ctx.now;
      const [result] = Array.from(runStages(compiled, [doc]));
      return replaceDocument(doc, result ?? {});
    },
  };
}

/** Options of `compileUpdate` (the fields of an update statement besides `q` and `u`). */
export interface CompileUpdateOptions {
  /** `arrayFilters` (checked to be an array of documents). */
  readonly arrayFilters?: readonly Document[];
  /** The statement's constants `c` (pipeline updates only). */
  readonly constants?: Document;
  /** The command's `let` variables, already evaluated (`evaluateCommandLet`). */
  readonly variables?: CommandVariables;
  /** `multi: true` (refused for a replacement). */
  readonly multi?: boolean;
  /** The update's collation (`queryCollator`; null or absent: simple). */
  readonly collator?: Collator | null;
}

/** Validates and compiles an update (throws CommandError with mongod's codes and messages). */
export function compileUpdate(update: Document | Document[], options: CompileUpdateOptions = {}): CompiledUpdate {
  const collator = options.collator ?? null;
  const arrayFilters = parseArrayFilters(options.arrayFilters, collator);
  if (Array.isArray(update)) {
    if (arrayFilters.size > 0) {
      throw new CommandError('FailedToParse', 'arrayFilters may not be specified for pipeline-syle updates');
    }
    return compilePipelineUpdate(update, withConstants(options.variables ?? NO_VARIABLES, options.constants), collator);
  }
  if (options.constants !== undefined && options.constants !== null) {
    throw new CommandError(51198, 'Constant values may only be specified for pipeline updates');
  }
  const first = Object.keys(update)[0];
  if (first !== undefined && first.charCodeAt(0) === 36) {
    // Top-level `$set`/`$inc`/... (the commonest updates) skip the update tree.
    const short = arrayFilters.size === 0 ? compileTopLevelUpdate(update, collator) : null;
    return short ?? compileOperators(update, arrayFilters, collator);
  }
  if (options.multi === true) {
    throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
  }
  return compileReplacement(update);
}

/** Sorts a seed document's top-level fields as mongod's ordered equality map would. */
function sortTopLevel(doc: Document): Document {
  const out: Document = {};
  for (const key of Object.keys(doc).sort(compareStrings)) out[key] = doc[key];
  return out;
}

/**
 * The document an upsert inserts: seeded from the filter's equality fields (only `_id` for a
 * replacement), the update applied with `isUpsertInsert`, then `_id` first (generated when
 * absent).
 */
export function buildUpsertDocument(
  filter: Document,
  update: CompiledUpdate,
  ctx: UpdateContext,
  idIfMissing: () => unknown,
): Document {
  const equalities = equalityFields(filter);
  let seed: Document;
  if (update.kind === 'replacement') {
    seed = hasOwn.call(equalities, '_id') ? { _id: equalities._id } : {};
  } else {
    seed = sortTopLevel(equalities);
  }
  const { doc } = update.apply(seed, { ...ctx, isUpsertInsert: true });
  const out: Document = { _id: hasOwn.call(doc, '_id') ? doc._id : idIfMissing() };
  for (const key of Object.keys(doc)) if (key !== '_id') out[key] = doc[key];
  assertStorableId(out);
  return out;
}
