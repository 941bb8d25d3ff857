/**
 * Reads of a view, as mongod runs them: the command becomes an aggregation whose pipeline is
 * the view's (the whole chain of views on views, innermost first) followed by the command's
 * own stages, over the collection the chain ends at (`src/storage/views.ts`).
 *
 *   - find: `$match` filter, `$sort`, `$skip`, `$limit`, `$project` (query_request_conversion.cpp,
 *     with its errors for the options an aggregation refuses: min, max, returnKey,
 *     showRecordId, tailable, noCursorTimeout, allowPartialResults, singleBatch unless
 *     limit is 1, readOnce); the cursor's namespace is the view's, so getMore continues it;
 *   - count: `$match`, `$skip`, `$limit`, then the count (`estimatedDocumentCount` sends count);
 *   - distinct: the values of the key among the view's matching documents;
 *   - aggregate: aggregate_request.ts prepends the view's pipeline itself.
 * A collation other than the view's (the simple one) is 167 OptionNotSupportedOnView.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { newPipelineContext } from '../../storage/aggregation/pipeline_context.js';
import { NO_VARIABLES, type CommandVariables } from '../../storage/expression/let.js';
import { compareValues } from '../../storage/values/compare.js';
import { keyString } from '../../storage/values/key_string.js';
import { isDocument } from '../../storage/values/paths.js';
import { resolveView, type ResolvedView } from '../../storage/views.js';
import { boolArg, docArg, intArg } from '../args.js';
import { firstBatchReply } from '../cursor_reply.js';
import type { CommandContext } from '../types.js';
import { preparePipeline, runPipeline } from './pipeline_exec.js';
import { commandPipelineRuntime } from './pipeline_runtime.js';
import { commandVariables } from './query_exec.js';

/** The view `name` of the command's database resolves to; undefined when it is no view. */
export function viewFor(ctx: CommandContext, name: string): ResolvedView | undefined {
  const catalog = ctx.server.catalog;
  if (catalog.get(ctx.db, name)) return undefined;
  return resolveView(catalog, ctx.db, name);
}

/** 167 unless `collation` is absent or the view's own (the simple collation). */
export function checkViewCollation(collation: unknown): void {
  if (collation === undefined || collation === null) return;
  const spec = collation as Document;
  const keys = Object.keys(spec);
  if (keys.length === 1 && keys[0] === 'locale' && spec.locale === 'simple') return;
  throw new CommandError('OptionNotSupportedOnView', "Cannot override a view's default collation");
}

/**
 * The documents of the view followed by `stages` (parsed and planned now, read lazily) through
 * the pipeline read path of aggregate (pipeline_exec.ts); `hint` applies to the collection the
 * view reads.
 */
export function viewDocuments(ctx: CommandContext, view: ResolvedView, stages: Document[], variables: CommandVariables = NO_VARIABLES, hint?: unknown): Iterable<Document> {
  const coll = ctx.server.catalog.get(ctx.db, view.source);
  const pctx = newPipelineContext({ now: new Date(ctx.now()), variables, runtime: commandPipelineRuntime(ctx, { writes: false }), collection: view.source });
  const prepared = preparePipeline({ stages: [...view.pipeline, ...stages], ctx: pctx, coll, hint, collator: null });
  return runPipeline(prepared, { now: ctx.now });
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

function notInAggregation(option: string): CommandError {
  return new CommandError('InvalidPipelineOperator', `Option ${option} not supported in aggregation.`);
}

/** `find` on a view. */
export function findOnView(ctx: CommandContext, cmd: Document, name: string, view: ResolvedView): Document {
  const limit = intArg(cmd, 'limit');
  if (docArg(cmd, 'min') && Object.keys(docArg(cmd, 'min')!).length > 0) throw notInAggregation('min');
  if (docArg(cmd, 'max') && Object.keys(docArg(cmd, 'max')!).length > 0) throw notInAggregation('max');
  if (present(cmd.returnKey)) throw notInAggregation('returnKey');
  if (present(cmd.showRecordId)) throw notInAggregation('showRecordId');
  if (present(cmd.tailable)) throw new CommandError('InvalidPipelineOperator', 'Tailable cursors are not supported in aggregation.');
  if (present(cmd.noCursorTimeout)) throw notInAggregation('noCursorTimeout');
  if (present(cmd.allowPartialResults)) throw notInAggregation('allowPartialResults');
  const singleBatch = boolArg(cmd, 'singleBatch', false);
  if (singleBatch && limit !== 1) throw notInAggregation('singleBatch');
  if (present(cmd.readOnce)) throw notInAggregation('readOnce');
  checkViewCollation(cmd.collation);
  const stages: Document[] = [];
  const filter = docArg(cmd, 'filter');
  if (filter && Object.keys(filter).length > 0) stages.push({ $match: filter });
  let hint = cmd.hint;
  const sort = docArg(cmd, 'sort');
  if (sort && Object.keys(sort).length > 0) {
    // `$natural` is the order the view's source is read in.
    if (Object.keys(sort).length === 1 && '$natural' in sort) hint ??= { $natural: sort.$natural };
    else stages.push({ $sort: sort });
  }
  const skip = intArg(cmd, 'skip');
  if (skip) stages.push({ $skip: skip });
  if (limit) stages.push({ $limit: limit });
  const projection = docArg(cmd, 'projection');
  if (projection && Object.keys(projection).length > 0) stages.push({ $project: projection });
  const variables = commandVariables(cmd, ctx.now());
  const docs = viewDocuments(ctx, view, stages, variables, hint);
  const batchSize = intArg(cmd, 'batchSize');
  return firstBatchReply(ctx, `${ctx.db}.${name}`, docs[Symbol.iterator](), { batchSize, singleBatch });
}

/** `count` on a view: `{n}`. */
export function countOnView(ctx: CommandContext, cmd: Document, view: ResolvedView): Document {
  checkViewCollation(cmd.collation);
  const stages: Document[] = [];
  const query = docArg(cmd, 'query');
  if (query && Object.keys(query).length > 0) stages.push({ $match: query });
  const skip = intArg(cmd, 'skip', 0);
  if (skip > 0) stages.push({ $skip: skip });
  const limit = Math.abs(intArg(cmd, 'limit', 0));
  if (limit > 0) stages.push({ $limit: limit });
  let n = 0;
  for (const _ of viewDocuments(ctx, view, stages, undefined, cmd.hint)) n++;
  return { n };
}

/** Values at a dotted path, arrays unwound one level (as distinct reads them). */
function valuesAt(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (value === undefined) return;
  if (i === parts.length) {
    if (Array.isArray(value)) out.push(...value);
    else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const el of value) if (isDocument(el)) valuesAt(el, parts, i, out);
    return;
  }
  if (isDocument(value)) valuesAt(value[parts[i]!], parts, i + 1, out);
}

/** `distinct` on a view: `{values}`. */
export function distinctOnView(ctx: CommandContext, cmd: Document, view: ResolvedView): Document {
  checkViewCollation(cmd.collation);
  const key = cmd.key as string;
  if (key.length === 0) throw new CommandError('BadValue', 'FieldPath cannot be constructed with empty string');
  const query = docArg(cmd, 'query');
  const stages: Document[] = query && Object.keys(query).length > 0 ? [{ $match: query }] : [];
  const parts = key.split('.');
  const seen = new Map<string, unknown>();
  for (const doc of viewDocuments(ctx, view, stages, undefined, cmd.hint)) {
    const found: unknown[] = [];
    valuesAt(doc, parts, 0, found);
    for (const v of found) {
      const ks = keyString(v);
      if (!seen.has(ks)) seen.set(ks, v);
    }
  }
  return { values: [...seen.values()].sort(compareValues) };
}

/** The aggregate command that reads view `view` as `cmd` (find, count, distinct or aggregate) asks, for explain. */
export function resolvedAggregate(cmd: Document, commandName: string, view: ResolvedView): Document {
  let stages: Document[];
  switch (commandName) {
    case 'find': {
      stages = [];
      const filter = docArg(cmd, 'filter');
      if (filter && Object.keys(filter).length > 0) stages.push({ $match: filter });
      const sort = docArg(cmd, 'sort');
      if (sort && Object.keys(sort).length > 0 && !('$natural' in sort)) stages.push({ $sort: sort });
      const skip = intArg(cmd, 'skip');
      if (skip) stages.push({ $skip: skip });
      const limit = intArg(cmd, 'limit');
      if (limit) stages.push({ $limit: limit });
      const projection = docArg(cmd, 'projection');
      if (projection && Object.keys(projection).length > 0) stages.push({ $project: projection });
      break;
    }
    case 'count': {
      const query = docArg(cmd, 'query');
      stages = query && Object.keys(query).length > 0 ? [{ $match: query }] : [];
      stages.push({ $count: 'count' });
      break;
    }
    case 'distinct': {
      const query = docArg(cmd, 'query');
      stages = query && Object.keys(query).length > 0 ? [{ $match: query }] : [];
      stages.push({ $unwind: { path: `$${String(cmd.key)}`, preserveNullAndEmptyArrays: true } });
      stages.push({ $group: { _id: null, distinct: { $addToSet: `$${String(cmd.key)}` } } });
      break;
    }
    default:
      stages = (cmd.pipeline as Document[] | undefined) ?? [];
  }
  const out: Document = { aggregate: view.source, pipeline: [...view.pipeline, ...stages], cursor: {} };
  if (cmd.hint !== undefined) out.hint = cmd.hint;
  if (cmd.let !== undefined) out.let = cmd.let;
  return out;
}
