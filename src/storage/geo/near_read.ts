/**
 * Reading a near query (`$near`, `$nearSphere`, `$geoNear`): the geospatial index mongod would
 * need for it (a query without one fails, 291 "unable to find index for $geoNear query"), and the
 * matches in order of distance, nearest first (ties in the order they were read). Mayfly's 2d and
 * 2dsphere indexes keep no entries: the distance order is made by measuring every match.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../collection.js';
import type { Index } from '../indexes/index.js';
import type { NearQuery } from '../query/operators/geo.js';
import type { StoredDocument } from '../record.js';

/** True when an index of kind `kind` ('2d' or '2dsphere') can answer `near` (QueryPlannerIXSelect). */
export function nearIndexKindFits(kind: string, near: NearQuery): boolean {
  if (kind === '2dsphere') return near.units !== 'flat';
  if (kind === '2d') return near.units === 'flat' || !near.isWrapping;
  return false;
}

/** The first visible geospatial index of `coll` on `near.path` that can answer it, or null. */
export function nearIndex(indexes: readonly Index[], near: NearQuery): Index | null {
  for (const index of indexes) {
    if (index.hidden) continue;
    const geoField = index.fields.find((f) => index.keyPattern[f] === '2d' || index.keyPattern[f] === '2dsphere');
    if (geoField !== near.path) continue;
    if (nearIndexKindFits(index.keyPattern[geoField] as string, near)) return index;
  }
  return null;
}

/** mongod's error for a near query no index can answer. */
export function noNearIndex(): CommandError {
  return new CommandError('NoQueryExecutionPlans', 'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query');
}

/** Throws 291 unless `coll` has an index that can answer `near`. */
export function requireNearIndex(coll: Collection, near: NearQuery): void {
  if (nearIndex(coll.allIndexes(), near) === null) throw noNearIndex();
}

/** A record or document with its distance and the location measured. */
export interface Measured<T> {
  readonly item: T;
  readonly distance: number;
  readonly location: unknown;
}

/** The items whose document has a geometry within the query's distances, nearest first (stable). */
export function byDistance<T>(items: Iterable<T>, docOf: (item: T) => Document, near: NearQuery): Measured<T>[] {
  const out: Measured<T>[] = [];
  for (const item of items) {
    const m = near.measure(docOf(item));
    if (m !== null) out.push({ item, distance: m.distance, location: m.location });
  }
  out.sort((a, b) => a.distance - b.distance);
  return out;
}

/** `records` ordered by distance. */
export function recordsByDistance(records: Iterable<StoredDocument>, near: NearQuery): StoredDocument[] {
  return byDistance(records, (rec) => rec.doc, near).map((m) => m.item);
}
