/**
 * Rule `documentSizeLimit`: Azure Cosmos DB for MongoDB stores documents of at most 2 MB ("Maximum
 * size of an item: 2 MB (UTF-8 length of JSON representation)", the limits page), 16 MB with the
 * EnableMongo16MBDocumentSupport capability. The limits page gives no Mongo-API error: Mayfly
 * answers 10334 BSONObjectTooLarge (what mongod answers past its own limit, so drivers classify
 * it the same way) with the Cosmos DB text "Request size is too large" and the sizes.
 */
import { CommandError } from '../../errors/command_error.js';
import type { CapabilityName } from '../capabilities.js';

/** The default limit: 2 MB. */
export const COSMOS_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** With EnableMongo16MBDocumentSupport: 16 MB. */
export const COSMOS_16MB_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** The largest document the account stores. */
export function cosmosMaxDocumentBytes(capabilities: ReadonlySet<CapabilityName>): number {
  return capabilities.has('EnableMongo16MBDocumentSupport') ? COSMOS_16MB_DOCUMENT_BYTES : COSMOS_DOCUMENT_BYTES;
}

/** The error for a document of `size` bytes over `maxBytes`. */
export function cosmosDocumentTooLarge(size: number, maxBytes: number): CommandError {
  return new CommandError('BSONObjectTooLarge', `Request size is too large. size in bytes: ${size}, max size: ${maxBytes}`);
}
