/**
 * Rule `changeStreamThrottledPage` (Microsoft's page, "Error handling": "HTTP error code 16500 -
 * When the change stream is throttled, it returns an empty page"): a getMore of a change stream
 * that the request-units meter throttles answers an empty batch, the cursor still open and its
 * resume token unchanged, instead of 16500. Other requests are throttled as before.
 */
import { Long, type Document } from '../../bson/library.js';
import { ChangeStreamCursor } from '../../storage/change_stream.js';
import type { CursorManager } from '../../storage/cursors.js';

/** The empty page a throttled getMore `body` answers when it reads a change stream of `cursors`; otherwise undefined. */
export function cosmosThrottledPage(cursors: CursorManager, command: string, db: string, body: Document): Document | undefined {
  if (command !== 'getMore' || !(body.getMore instanceof Long) || typeof body.collection !== 'string') return undefined;
  const cursor = cursors.peek(body.getMore);
  const ns = `${db}.${body.collection}`;
  if (!(cursor instanceof ChangeStreamCursor) || cursor.ns !== ns) return undefined;
  return { cursor: { nextBatch: [], ...cursor.replyFields(), id: cursor.id, ns } };
}
