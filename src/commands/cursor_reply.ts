/**
 * Cursor replies shared by find, aggregate, listCollections, listIndexes and getMore: the first
 * batch, and a server cursor registered when more documents remain.
 */
import { Long, type Document } from '../bson/library.js';
import { DEFAULT_FIRST_BATCH_DOCS } from '../storage/cursors.js';
import type { CommandContext } from './types.js';

/** How the first batch is cut. */
export interface FirstBatchOptions {
  /** Documents in the first batch (mongod's default 101); 0 = none yet. */
  batchSize?: number;
  /** Close the cursor after the first batch. */
  singleBatch?: boolean;
  /** Keep the cursor open past the idle timeout. */
  noCursorTimeout?: boolean;
}

/** Builds `{ cursor: { firstBatch, id, ns } }` over `source`, opening a cursor when needed. */
export function firstBatchReply(ctx: CommandContext, ns: string, source: Iterator<Document>, options: FirstBatchOptions = {}): Document {
  const { batch, id } = ctx.server.cursors.firstBatch(ns, source, ctx.now(), {
    maxDocs: options.batchSize ?? DEFAULT_FIRST_BATCH_DOCS,
    singleBatch: options.singleBatch === true,
    noTimeout: options.noCursorTimeout === true,
  });
  return cursorReply(ns, batch, id);
}

/** `{ cursor: { firstBatch, id, ns } }`: `batch` and the cursor `id` (0: none left open). */
export function cursorReply(ns: string, batch: Document[], id: Long = Long.ZERO): Document {
  return { cursor: { firstBatch: batch, id, ns } };
}

/** Wraps an iterable as an iterator that stops after `limit` items (0 = no limit). */
export function* limitIterator<T>(source: Iterable<T>, limit: number): Generator<T> {
  if (limit <= 0) {
    yield* source;
    return;
  }
  let n = 0;
  for (const item of source) {
    yield item;
    if (++n >= limit) return;
  }
}
