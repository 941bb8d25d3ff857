/**
 * Rule `uniqueIndexOnEmpty`: Azure Cosmos DB for MongoDB creates a unique index only on an empty
 * collection ("Currently, unique indexes can be created only when the collection is empty
 * (contains no documents)", the indexing page). A collection that holds documents answers 67
 * CannotCreateIndex "Cannot create unique index when collection contains documents". An existing
 * empty collection takes one: the page's own example answers `createdCollectionAutomatically:
 * false`. The EnableUniqueIndexReIndex capability lifts the rule: the index is built over the
 * documents (duplicates then fail the build with 11000, as in mongod).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CapabilityName } from '../capabilities.js';

/** The message on a collection that holds documents. */
export const UNIQUE_NON_EMPTY_MESSAGE = 'Cannot create unique index when collection contains documents';

/** What the rule needs to know of the collection the index is built on. */
export interface UniqueIndexTarget {
  /** True when it holds a (visible) document. */
  readonly hasDocuments: boolean;
}

/** Throws 67 when one of `specs` (the indexes about to be built) is unique and `target` holds documents. */
export function cosmosCheckUniqueIndexes(specs: readonly Document[], target: UniqueIndexTarget, capabilities: ReadonlySet<CapabilityName>): void {
  if (!specs.some((spec) => spec.unique === true)) return;
  if (capabilities.has('EnableUniqueIndexReIndex')) return;
  if (target.hasDocuments) throw new CommandError('CannotCreateIndex', UNIQUE_NON_EMPTY_MESSAGE);
}
