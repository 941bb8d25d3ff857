/**
 * Rule `replyTypes`: Azure Cosmos DB for MongoDB opens some replies with a `_t` naming the reply
 * type: `CreateIndexesResponse` (the TTL and indexing pages show it), `DropIndexesResponse` (the
 * indexing page's dropIndexes example), and `OKMongoResponse` for `create` (no page shows it: it
 * is the reply applications log from a Cosmos DB createCollection; the issue names it). Other
 * replies carry none.
 */
import type { Document } from '../../bson/library.js';

/** The `_t` of each command's reply. */
export const REPLY_TYPES: Readonly<Record<string, string>> = {
  create: 'OKMongoResponse',
  createIndexes: 'CreateIndexesResponse',
  dropIndexes: 'DropIndexesResponse',
};

/** `reply` with `_t` first when the command `name` has a reply type (`reply` itself otherwise). */
export function cosmosTypedReply(name: string, reply: Document): Document {
  const type = REPLY_TYPES[name];
  if (type === undefined || '_t' in reply) return reply;
  const out: Document = { _t: type };
  for (const key of Object.keys(reply)) out[key] = reply[key];
  return out;
}
