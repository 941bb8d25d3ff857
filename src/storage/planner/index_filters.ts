/**
 * Index filters (mongod's `QuerySettings` of a collection, set by `planCacheSetFilter`): per
 * query shape, the indexes the planner may consider, by key pattern or name. A query of that
 * shape plans over those indexes only (a collection scan when none applies) and its hint is
 * ignored; explain says `indexFilterSet: true`. Filters live as long as the collection object
 * (a drop or a restart forgets them, as mongod's do).
 */
import type { Document } from '../../bson/library.js';
import type { Collection } from '../collection.js';
import type { Index } from '../indexes/index.js';
import { keyPatternsEqual } from '../indexes/key_pattern.js';
import { queryShapeKey, type QueryShapeParts } from './query_shape.js';

/** One filter: the query it was set with (shown by planCacheListFilters) and the allowed indexes. */
export interface IndexFilterEntry {
  readonly query: Document;
  readonly sort: Document;
  readonly projection: Document;
  readonly collation: Document | null;
  /** Allowed key patterns (deduplicated). */
  readonly keyPatterns: readonly Document[];
  /** Allowed index names (deduplicated). */
  readonly names: readonly string[];
}

const filtersOf = new WeakMap<Collection, Map<string, IndexFilterEntry>>();

/** Sets (or replaces) the filter of the shape of `parts`. */
export function setIndexFilter(coll: Collection, parts: QueryShapeParts, entry: IndexFilterEntry): void {
  let filters = filtersOf.get(coll);
  if (!filters) filtersOf.set(coll, (filters = new Map()));
  const key = queryShapeKey(parts);
  // A replaced filter moves to the end, as a fresh entry.
  filters.delete(key);
  filters.set(key, entry);
}

/** Removes the filter of one shape. */
export function removeIndexFilter(coll: Collection, parts: QueryShapeParts): void {
  filtersOf.get(coll)?.delete(queryShapeKey(parts));
}

/** Removes every filter of `coll`. */
export function clearIndexFilters(coll: Collection): void {
  filtersOf.delete(coll);
}

/** The filters of `coll`, oldest first. */
export function listIndexFilters(coll: Collection): IndexFilterEntry[] {
  return [...(filtersOf.get(coll)?.values() ?? [])];
}

/** The filter a query of shape `parts` plans under, if any (cheap when the collection has none). */
export function indexFilterFor(coll: Collection, parts: () => QueryShapeParts): IndexFilterEntry | null {
  const filters = filtersOf.get(coll);
  if (!filters || filters.size === 0) return null;
  return filters.get(queryShapeKey(parts())) ?? null;
}

/** True when `entry` allows `index` (by name or by key pattern). */
export function filterAllows(entry: IndexFilterEntry, index: Index): boolean {
  return entry.names.includes(index.name) || entry.keyPatterns.some((k) => keyPatternsEqual(k, index.keyPattern));
}
