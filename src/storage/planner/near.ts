/**
 * Reading a near query (`$near`, `$nearSphere`, `$geoNear` in a find, an update or a delete): the
 * geospatial index mongod would need for it (a query without one fails, 291 "unable to find index
 * for $geoNear query"), and the matches in order of distance, nearest first (ties in the order
 * they were read). Mayfly's 2d and 2dsphere indexes keep no entries: the order is made by
 * measuring every match.
 */
import type { Collection } from '../collection.js';
import type { Index } from '../indexes/index.js';
import { byDistance, nearIndexKindFits, noNearIndex, type NearQuery } from '../query/operators/geo.js';
import type { StoredDocument } from '../record.js';

/** The first visible geospatial index on `near.path` that can answer it, or null. */
export function nearIndex(indexes: readonly Index[], near: NearQuery): Index | null {
  for (const index of indexes) {
    if (index.hidden) continue;
    const geoField = index.fields.find((f) => index.keyPattern[f] === '2d' || index.keyPattern[f] === '2dsphere');
    if (geoField === undefined || geoField !== near.path) continue;
    if (nearIndexKindFits(index.keyPattern[geoField] as string, near)) return index;
  }
  return null;
}

/** Throws 291 unless `coll` has an index that can answer `near`. */
export function requireNearIndex(coll: Collection, near: NearQuery): void {
  if (nearIndex(coll.allIndexes(), near) === null) throw noNearIndex();
}

/** `records` ordered by distance (those without a geometry in range dropped). */
export function recordsByDistance(records: Iterable<StoredDocument>, near: NearQuery): StoredDocument[] {
  return byDistance(records, (rec) => rec.doc, near).map((m) => m.item);
}
