/**
 * The read path shared by find, count, distinct, the write commands and aggregate: candidate
 * records, the compiled filter, sort, skip, limit and projection, all as lazy iterators that
 * re-check visibility when a document is handed out (so an open cursor never returns a document
 * that expired after the query started).
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection, StoredDocument } from '../../storage/collection.js';
import type { Predicate } from '../../storage/query/compile_filter.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileSort } from '../../storage/sort.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { candidateRecords } from '../../storage/read_plan.js';
import { valuesEqual } from '../../storage/values/compare.js';

/** What a read asks for. */
export interface ReadSpec {
  /** The filter document (used to pick candidates: an _id or index lookup). */
  filter?: Document;
  /** The compiled filter; compiled from `filter` when absent. */
  predicate?: Predicate;
  sort?: Document;
  projection?: Document;
  skip?: number;
  /** 0 = no limit. */
  limit?: number;
}

/** Records of `coll` matching `predicate`, lazily. */
export function* matchingRecords(coll: Collection, filter: Document, predicate: Predicate, now: () => number): Generator<StoredDocument> {
  for (const rec of candidateRecords(coll, filter, now)) if (predicate(rec.doc)) yield rec;
}

/** Matching records in the order `sort` asks for (materialised), or natural order (lazy). */
export function* orderedRecords(coll: Collection, spec: ReadSpec, now: () => number): Generator<StoredDocument> {
  const filter = spec.filter ?? {};
  const predicate = spec.predicate ?? compileQuery(filter, now());
  const sort = spec.sort && Object.keys(spec.sort).length > 0 ? compileSort(spec.sort) : null;
  let skip = spec.skip ?? 0;
  const limit = spec.limit ?? 0;
  let returned = 0;
  if (!sort) {
    for (const rec of matchingRecords(coll, filter, predicate, now)) {
      if (skip > 0) {
        skip--;
        continue;
      }
      yield rec;
      if (limit > 0 && ++returned >= limit) return;
    }
    return;
  }
  const all = [...matchingRecords(coll, filter, predicate, now)];
  all.sort((a, b) => sort(a.doc, b.doc));
  for (const rec of all) {
    if (skip > 0) {
      skip--;
      continue;
    }
    // Re-check at hand-out time: the record may have expired or been removed since.
    if (coll.rawGet(rec.id) !== rec || !coll.isVisible(rec, now())) continue;
    yield rec;
    if (limit > 0 && ++returned >= limit) return;
  }
}

/** The documents a find returns, projected. Compiles everything before the first document. */
export function readDocuments(coll: Collection | undefined, spec: ReadSpec, now: () => number): Iterator<Document> {
  // Compile eagerly so that bad filters/sorts/projections fail the command, not a later getMore.
  const predicate = spec.predicate ?? compileQuery(spec.filter ?? {}, now());
  if (spec.sort) compileSort(spec.sort);
  const project = spec.projection && Object.keys(spec.projection).length > 0 ? compileProjection(spec.projection, { now: new Date(now()) }) : null;
  if (!coll) return [][Symbol.iterator]();
  const records = orderedRecords(coll, { ...spec, predicate }, now);
  return (function* () {
    for (const rec of records) yield project ? project(rec.doc) : rec.doc;
  })();
}

/** Throws mongod's error when `hint` names no index of `coll`. */
export function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (hint === undefined || hint === null) return;
  if (typeof hint === 'string') {
    if (coll && coll.indexSpecs().some((s) => s.name === hint)) return;
  } else if (typeof hint === 'object') {
    const keys = Object.keys(hint as Document);
    if (keys.length === 0) return;
    if (keys[0] === '$natural') return;
    if (coll && coll.indexSpecs().some((s) => valuesEqual(s.key, hint))) return;
  }
  if (!coll) return;
  throw new CommandError('BadValue', 'hint provided does not correspond to an existing index');
}

/** Throws 51024 unless `value` (a count argument) is ≥ 0. */
export function checkNonNegative(field: string, value: number | undefined): void {
  if (value !== undefined && value < 0) {
    throw new CommandError(51024, `BSON field '${field}' value must be >= 0, actual value '${value}'`);
  }
}
