/**
 * Cluster time on the replica-set presentation: every reply (errors too) carries `$clusterTime`
 * (signed with zeros, as a mongod without authentication signs it) and `operationTime`; a client's
 * `$clusterTime` moves the logical clock forward. A standalone does neither, as mongod.
 */
import { Binary, Long, Timestamp, type Document } from '../../bson/library.js';
import type { ServerServices } from '../../server/services.js';
import { isDocument } from '../../storage/values/paths.js';

const ZERO_SIGNATURE = { hash: new Binary(Buffer.alloc(20), 0), keyId: Long.ZERO };

/** Moves the clock to the `$clusterTime.clusterTime` a client gossips (replica set only). */
export function gossipClusterTimeIn(server: ServerServices, body: Document): void {
  const gossip = body.$clusterTime;
  if (server.settings.replSetName === null || !isDocument(gossip)) return;
  if (gossip.clusterTime instanceof Timestamp) server.logicalClock.advanceTo(gossip.clusterTime);
}

/** Adds `$clusterTime` and `operationTime` to a reply (replica set only). */
export function addClusterTime(server: ServerServices, reply: Document): Document {
  if (server.settings.replSetName === null) return reply;
  const now = server.logicalClock.now();
  reply.$clusterTime = { clusterTime: now, signature: ZERO_SIGNATURE };
  reply.operationTime = now;
  return reply;
}
