/**
 * Rule `ignoreWriteConcern`: Azure Cosmos DB for MongoDB replicates by the account's consistency
 * level (its consistency-mapping page maps MongoDB's write concerns onto it) and does not answer a
 * client's write concern as mongod does: no error for `w` above 1 or an unknown tag, no
 * `writeConcernError`. The command runs as if it had none.
 */
import type { Document } from '../../bson/library.js';

/** `body` without its `writeConcern` (itself when it has none). */
export function cosmosWithoutWriteConcern(body: Document): Document {
  if (!('writeConcern' in body)) return body;
  const out: Document = {};
  for (const key of Object.keys(body)) if (key !== 'writeConcern') Object.defineProperty(out, key, { value: body[key], writable: true, enumerable: true, configurable: true });
  return out;
}
