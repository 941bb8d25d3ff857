/**
 * Rule `sortNeedsIndex`: Azure Cosmos DB for MongoDB serves a sort only from an index ("To apply
 * a sort to a query, you must create an index on the fields used in the sort operation", the
 * indexing page). A sort on one field needs an index on that field (either direction: "The sort
 * order of the single field index does not matter"); a sort on several fields needs a compound
 * index on exactly those fields in that order, with every direction as given or every direction
 * reversed; `_id` is always indexed. Otherwise 2 BadValue with the text of the error-codes page.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';

/** The message of the error-codes page ("Troubleshoot common issues"). */
export const SORT_EXCLUDED_MESSAGE = 'The index path corresponding to the specified order-by item is excluded.';

/** The direction of one sort or key field: 1, -1, or 0 for anything else ($meta, a string kind). */
function direction(value: unknown): number {
  if (!isNumber(value)) return 0;
  const n = toDouble(value);
  if (n === 1 || n === -1) return n;
  return 0;
}

/** True when an index of key `key` serves the sort `sort` (non-empty). */
export function indexServesSort(sort: Document, key: Document): boolean {
  const sortFields = Object.keys(sort);
  const keyFields = Object.keys(key);
  if (sortFields.length !== keyFields.length) return false;
  if (sortFields.length === 1) return sortFields[0] === keyFields[0] && direction(key[keyFields[0]!]) !== 0;
  let same = true;
  let reversed = true;
  for (let i = 0; i < sortFields.length; i++) {
    if (sortFields[i] !== keyFields[i]) return false;
    const s = direction(sort[sortFields[i]!]);
    const k = direction(key[keyFields[i]!]);
    if (s === 0 || k === 0) return false;
    if (s !== k) same = false;
    if (s !== -k) reversed = false;
  }
  return same || reversed;
}

/**
 * Throws 2 BadValue unless an index of `keys` (the collection's index key patterns, `_id_`
 * included) serves `sort`. An empty sort, and a sort on `_id` alone, always pass; a `$meta`
 * (textScore) sort is left to the query engine.
 */
export function cosmosCheckSort(sort: Document | undefined | null, keys: readonly Document[]): void {
  if (sort === undefined || sort === null) return;
  const fields = Object.keys(sort);
  if (fields.length === 0) return;
  if (fields.some((f) => direction(sort[f]) === 0)) return;
  if (fields.length === 1 && fields[0] === '_id') return;
  if (keys.some((key) => indexServesSort(sort, key))) return;
  throw new CommandError('BadValue', SORT_EXCLUDED_MESSAGE);
}

/** The key patterns of `coll`'s indexes (`_id_` included; a missing collection has `_id_` only), for `cosmosCheckSort`. */
export function cosmosIndexKeys(coll: { indexSpecs(): Document[] } | undefined): Document[] {
  return coll ? coll.indexSpecs().filter((spec) => spec.hidden !== true).map((spec) => spec.key as Document) : [{ _id: 1 }];
}
