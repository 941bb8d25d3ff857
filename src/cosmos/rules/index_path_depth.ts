/**
 * Rule `indexPathDepth`: Azure Cosmos DB for MongoDB indexes paths of at most 6 levels. The pages
 * give no error text: Mayfly answers 67 CannotCreateIndex (the error-codes page's code for an
 * index request that cannot be completed) naming the path.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';

/** The deepest index path Cosmos DB takes. */
export const MAX_INDEX_PATH_DEPTH = 6;

/** Throws 67 when a field of `spec`'s key is deeper than 6 levels (`a.b.c.d.e.f.g`). */
export function cosmosCheckIndexPathDepth(spec: Document): void {
  for (const field of Object.keys(spec.key as Document)) {
    const depth = field.split('.').filter((part) => part !== '$**').length;
    if (depth > MAX_INDEX_PATH_DEPTH) {
      throw new CommandError('CannotCreateIndex', `The index path '${field}' is ${depth} levels deep; Azure Cosmos DB indexes paths of at most ${MAX_INDEX_PATH_DEPTH} levels.`);
    }
  }
}
