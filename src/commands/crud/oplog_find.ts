/**
 * `find` on `local.oplog.rs` of the replica-set presentation: the change log's entries in
 * mongod's oplog shape (change_log.ts), filtered (`ts`, `ns`, `op`, any field), oldest first; with
 * `tailable` (and `awaitData`) the cursor stays open and a getMore waits for the next commit.
 * Sort, skip, projection and the other find options are not applied to the oplog.
 */
import type { Document } from '../../bson/library.js';
import { changeLogOf, OplogCursor } from '../../storage/change_log.js';
import { compileFilter } from '../../storage/query/compile_filter.js';
import type { CommandContext } from '../types.js';
import { Long } from '../../bson/library.js';

/** True when `find` in `ctx` reads the replica set's oplog. */
export function readsOplog(ctx: CommandContext, name: string): boolean {
  return ctx.db === 'local' && name === 'oplog.rs' && changeLogOf(ctx.server.catalog) !== undefined;
}

/** The reply of a find on `local.oplog.rs`. */
export function findOplog(ctx: CommandContext, cmd: Document, batchSize: number | undefined): Document {
  const log = changeLogOf(ctx.server.catalog)!;
  const filter = (cmd.filter as Document | undefined) ?? {};
  const predicate = compileFilter(filter);
  const ns = 'local.oplog.rs';
  const cursor = new OplogCursor(ns, ctx.now(), log, predicate, cmd.tailable === true, cmd.awaitData === true);
  ctx.server.counters.opcounters.query++;
  const firstBatch = cursor.nextBatch(batchSize ?? 101);
  if (cursor.exhausted && cmd.tailable !== true) {
    const rest = cursor.nextBatch(undefined);
    if (rest.length === 0) return { cursor: { firstBatch, id: Long.ZERO, ns } };
    firstBatch.push(...rest);
    return { cursor: { firstBatch, id: Long.ZERO, ns } };
  }
  return { cursor: { firstBatch, id: ctx.server.cursors.register(cursor), ns } };
}
