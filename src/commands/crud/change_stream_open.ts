/**
 * An aggregate whose pipeline starts with `$changeStream` opens a change stream
 * (src/storage/change_stream.ts) instead of reading a collection: the specification and the
 * following stages are checked with mongod's errors (40573 on a standalone, the namespace rules,
 * 20 for a stage a change stream does not allow), then a tailable cursor is registered and its
 * first batch (what is there already, usually nothing) answered with `postBatchResumeToken`.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { cosmosChangeStreamHooks } from '../../cosmos/change_streams/events.js';
import { cosmosCheckChangeStreamOpen } from '../../cosmos/change_streams/open_rules.js';
import { parsePipeline, runStages } from '../../storage/aggregation/pipeline.js';
import { CHANGE_STREAM_FOLLOWERS, parseChangeStreamSpec } from '../../storage/aggregation/stages/change_stream.js';
import { changeLogOf } from '../../storage/change_log.js';
import { ChangeStreamCursor, checkChangeStreamNamespace } from '../../storage/change_stream.js';
import { documentFields } from '../../storage/record.js';
import { keyString } from '../../storage/values/key_string.js';
import type { CommandContext } from '../types.js';
import { serverSourceContext } from './aggregate_request.js';

/** True when `pipeline`'s first stage is `$changeStream`. */
export function isChangeStreamPipeline(pipeline: unknown): boolean {
  if (!Array.isArray(pipeline) || pipeline.length === 0) return false;
  const first: unknown = pipeline[0];
  return first !== null && typeof first === 'object' && !Array.isArray(first) && Object.keys(first)[0] === '$changeStream';
}

/** Opens the change stream of the aggregate `cmd`; the reply's first batch and cursor. */
export function openChangeStream(ctx: CommandContext, cmd: Document, batchSize: number | undefined): Document {
  const stages = cmd.pipeline as Document[];
  const coll = typeof cmd.aggregate === 'string' ? cmd.aggregate : null;
  const spec = parseChangeStreamSpec(stages[0]!.$changeStream);
  const log = changeLogOf(ctx.server.catalog);
  if (ctx.server.settings.replSetName === null || log === undefined) {
    throw new CommandError(40573, 'The $changeStream stage is only supported on replica sets');
  }
  const scope = checkChangeStreamNamespace(spec, ctx.db, coll);
  const cosmos = ctx.server.settings.cosmos;
  if (cosmos) cosmosCheckChangeStreamOpen(cosmos, { pipeline: stages, spec, db: ctx.db, coll, collectionExists: coll !== null && ctx.server.catalog.get(ctx.db, coll) !== undefined });
  const catalog = ctx.server.catalog;
  const lookup = (db: string, name: string, documentKey: Document): Document | null => {
    const target = catalog.get(db, name);
    const rec = target?.getById(keyString(documentKey._id), ctx.now());
    return rec === undefined ? null : documentFields(rec, null);
  };
  const hooks = cosmos ? cosmosChangeStreamHooks(cosmos, lookup) : {};
  const nowMs = ctx.now();
  const pctx = serverSourceContext(ctx, cmd, coll, false, nowMs);
  const parsed = parsePipeline(stages, pctx, 'aggregate');
  for (const stage of parsed.stages.slice(1)) {
    if (!CHANGE_STREAM_FOLLOWERS.has(stage.name)) throw new CommandError('IllegalOperation', `${stage.name} is not permitted in a $changeStream pipeline`);
  }
  const rest = parsed.stages.slice(1).filter((s) => s.name !== '$changeStreamSplitLargeEvent');
  const split = rest.length !== parsed.stages.length - 1;
  const ns = coll === null ? `${ctx.db}.$cmd.aggregate` : `${ctx.db}.${coll}`;
  const cursor = new ChangeStreamCursor(ns, nowMs, spec, scope, {
    log,
    clusterTimeNow: () => ctx.server.logicalClock.now(),
    lookup,
    transform: finishing(rest.length === 0 ? (event) => [event] : (event) => runStages(rest, [event]), hooks.finish),
    split,
    ...(hooks.shape ? { shape: hooks.shape } : {}),
    ...(hooks.invalidated ? { invalidated: hooks.invalidated } : {}),
    shareEvents: rest.length === 0,
  });
  ctx.server.counters.opcounters.command++;
  let firstBatch: Document[];
  try {
    firstBatch = batchSize === 0 ? [] : cursor.nextBatch(batchSize);
  } catch (err) {
    cursor.close();
    throw err;
  }
  if (cursor.exhausted) {
    cursor.close();
    return { cursor: { firstBatch, ...cursor.replyFields(), id: Long.ZERO, ns } };
  }
  const id = ctx.server.cursors.register(cursor);
  return { cursor: { firstBatch, ...cursor.replyFields(), id, ns } };
}

/** `transform` followed by `finish` on each document it hands out (Cosmos DB mode's event shape). */
function finishing(transform: (event: Document) => Iterable<Document>, finish: ((doc: Document) => Document) | undefined): (event: Document) => Iterable<Document> {
  if (finish === undefined) return transform;
  return (event) => Array.from(transform(event), finish);
}
