/**
 * Rule `indexCompoundFields`: Azure Cosmos DB for MongoDB builds compound indexes of at most 8
 * fields. The error-codes page's row: code 67 `CannotCreateIndex`, "The request to create an index
 * can't be completed.", solution "Up to eight fields can be included in a compound index". mongod
 * takes 32 fields, and its 64 indexes per collection come before Cosmos's 500 single-field
 * indexes, so only the field count is a rule here. The page gives the description, not an
 * errmsg: Mayfly answers it with the count.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';

/** The most fields a compound index may hold. */
export const MAX_COMPOUND_INDEX_FIELDS = 8;

/** Throws 67 when `spec`'s key has more than 8 fields. */
export function cosmosCheckCompoundIndexFields(spec: Document): void {
  const n = Object.keys(spec.key as Document).length;
  if (n > MAX_COMPOUND_INDEX_FIELDS) {
    throw new CommandError('CannotCreateIndex', `The request to create an index can't be completed: a compound index holds at most ${MAX_COMPOUND_INDEX_FIELDS} fields, not ${n}.`);
  }
}
