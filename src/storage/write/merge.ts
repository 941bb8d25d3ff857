/**
 * `$merge`'s writes (merge_processor.cpp): each document of the pipeline becomes one statement
 * of an unordered write batch on the target, as mongod's merge strategies build them:
 *
 *   whenMatched   whenNotMatched   statement
 *   replace       insert/discard/fail   update {q: on-fields, u: doc} (upsert for insert)
 *   merge         insert/discard/fail   update {q, u: {$set: doc}}
 *   keepExisting  insert                update {q, u: {$setOnInsert: doc}, upsert}
 *   [pipeline]    insert/discard/fail   update {q, u: pipeline, c: let values (new: doc)}, the
 *                                       upsert inserting `new` as it is (upsertSupplied)
 *   fail          insert                insert doc (a match is a duplicate key)
 *
 * Every statement is attempted; the first error is then thrown (mongod's unordered batch), and
 * `whenNotMatched: fail` throws 13113 when a statement matched nothing. The `on` values are read
 * before anything is written: an array is 51185, a nullish value 51132 unless the unique index
 * supporting `on` is neither sparse nor partial (then it matches null, as 8.2 allows).
 */
import { ObjectId, type Document } from '../../bson/library.js';
import { CommandError, toCommandError } from '../../errors/command_error.js';
import type { Catalog } from '../catalog.js';
import { compileQuery } from '../query/compile_query.js';
import { buildUpsertDocument, compileUpdate } from '../update/compile_update.js';
import type { CompiledUpdate } from '../update/update_context.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isDocument } from '../values/paths.js';
import type { Collator } from '../values/collator.js';
import type { MergeItemSpec, MergeWriteSpec } from '../aggregation/runtime.js';
import type { WriteEnv } from './_internal.js';
import { executeInsert } from './insert.js';
import { executeUpdate, type ParsedUpdate } from './update.js';

/** What `$merge` writes where, and how. */
export type MergeRequest = MergeWriteSpec;
/** One document to merge. */
export type MergeItem = MergeItemSpec;

/** The ports `executeMerge` needs beyond the executors': the catalog, the command's time and collation. */
export interface MergeContext {
  readonly catalog: Catalog;
  readonly nowMs: number;
  readonly collator: Collator | null;
}

/** Writes `items` into the target of `request`; throws the first error once every statement was tried. */
export function executeMerge(env: WriteEnv, ctx: MergeContext, request: MergeRequest, items: readonly MergeItem[]): void {
  const onId = request.on.includes('_id');
  const allowNullish = onId && request.on.length === 1 ? true : nullishAllowed(ctx.catalog, request);
  // mongod's batch objects: `_id` generated when `on` needs it, the `on` values read and checked.
  const prepared = items.map((item) => {
    let doc = item.doc;
    if (onId && doc._id === undefined) doc = { ...doc, _id: new ObjectId() };
    return { doc, filter: onFilter(doc, request.on, allowNullish), constants: item.constants };
  });
  if (request.whenMatched === 'fail') {
    const coll = ctx.catalog.getOrCreate(request.db, request.coll).coll;
    const { errors } = executeInsert(env, { target: coll, documents: prepared.map((p) => p.doc), ordered: false, nowMs: ctx.nowMs });
    if (errors.length > 0) throw errors[0]!.error;
    return;
  }
  const upsert = request.whenNotMatched === 'insert';
  let firstError: unknown;
  let unmatched = false;
  for (const item of prepared) {
    try {
      const parsed = mergeStatement(request, item.doc, item.filter, item.constants, upsert, ctx);
      const outcome = executeUpdate(env, { catalog: ctx.catalog, db: request.db, name: request.coll }, parsed, ctx.nowMs);
      if (outcome.matched === 0 && outcome.upsertedId === undefined) unmatched = true;
    } catch (err) {
      if (toCommandError(err).code === 1) throw err;
      firstError ??= err;
    }
  }
  if (firstError !== undefined) throw firstError;
  if (request.whenNotMatched === 'fail' && unmatched) {
    throw new CommandError(13113, '$merge could not find a matching document in the target collection for at least one document in the source collection');
  }
}

/** The update statement of one document (its `q` is `filter`). */
function mergeStatement(request: MergeRequest, doc: Document, filter: Document, constants: Document | undefined, upsert: boolean, ctx: MergeContext): ParsedUpdate {
  let update: CompiledUpdate;
  let supplied: CompiledUpdate | undefined;
  switch (request.whenMatched) {
    case 'replace':
      update = compileUpdate(doc, { collator: ctx.collator });
      break;
    case 'merge':
      update = compileUpdate({ $set: doc }, { collator: ctx.collator });
      break;
    case 'keepExisting':
      update = compileUpdate({ $setOnInsert: doc }, { collator: ctx.collator });
      break;
    default:
      update = compileUpdate([...request.pipeline!], { constants, collator: ctx.collator });
      if (upsert) supplied = compileUpdate(isDocument(constants?.new) ? (constants!.new as Document) : doc);
      break;
  }
  const predicate = compileQuery(filter, ctx.nowMs, undefined, ctx.collator);
  return {
    selection: { filter, predicate, limit: 1, collator: ctx.collator },
    update,
    matchKey: null,
    upsert,
    upsertDocument: (now) => buildUpsertDocument(filter, supplied ?? update, { now, isUpsertInsert: true }, () => new ObjectId()),
  };
}

/**
 * `{ <on field>: {$eq: value} }` for `doc` (`_extractMergeOnFieldsFromDoc`): 51185 for an array
 * on the path, 51132 for a nullish value unless `allowNullish` (then it matches null).
 */
function onFilter(doc: Document, on: readonly string[], allowNullish: boolean): Document {
  const filter: Document = {};
  for (const path of on) {
    let value: unknown = doc;
    const parts = path.split('.');
    for (let i = 0; i < parts.length; i++) {
      value = isDocument(value) && !Array.isArray(value) ? (value as Document)[parts[i]!] : undefined;
      if (Array.isArray(value)) throw new CommandError(51185, `$merge write error: 'on' field '${path}' is an array`);
      if (i + 1 < parts.length && !(isDocument(value) && !Array.isArray(value))) {
        value = undefined;
        break;
      }
    }
    const nullish = value === undefined || value === null || bsonTypeOf(value) === 'undefined';
    if (nullish && !allowNullish) {
      throw new CommandError(51132, `$merge write error: 'on' field '${path}' cannot be missing, null or undefined if supporting index is sparse`);
    }
    filter[path] = { $eq: nullish ? null : value };
  }
  return filter;
}

/** True when the unique index on exactly the `on` fields is neither sparse nor partial (mongod's "Full" support). */
function nullishAllowed(catalog: Catalog, request: MergeRequest): boolean {
  const coll = catalog.get(request.db, request.coll);
  if (!coll) return false;
  const wanted = [...request.on].sort().join('\u0000');
  const index = coll.indexes.find((i) => i.unique && [...i.fields].sort().join('\u0000') === wanted);
  return index !== undefined && !index.sparse && index.partialFilter === null;
}
