/**
 * Chooses which records a filter needs to look at: an `_id` point lookup, an equality lookup on
 * a single-field index, or the whole collection. The caller still applies the full predicate;
 * this only narrows the candidates. Everything is lazy and visibility-checked at read time.
 */
import type { Document } from '../bson.js';
import type { Collection, StoredDocument } from './collection.js';
import { bsonTypeOf } from './values/bson_type.js';
import { keyString } from './values/key_string.js';

const NON_POINT_TYPES = new Set(['object', 'array', 'regex', 'undefined', 'null', 'minKey', 'maxKey']);

/** The scalar a filter compares `field` with by equality, if it does so plainly. */
function equalityValue(filter: Document, field: string): { value: unknown } | null {
  if (!(field in filter)) return null;
  let value = filter[field];
  if (bsonTypeOf(value) === 'object') {
    const ops = Object.keys(value as Document);
    if (ops.length !== 1 || ops[0] !== '$eq') return null;
    value = (value as Document).$eq;
  }
  return NON_POINT_TYPES.has(bsonTypeOf(value)) ? null : { value };
}

/** Records that may match `filter`, in natural order for a scan. */
export function* candidateRecords(coll: Collection, filter: Document, nowMs: () => number): Generator<StoredDocument> {
  const id = equalityValue(filter, '_id');
  if (id) {
    const rec = coll.getById(keyString(id.value), nowMs());
    if (rec) yield rec;
    return;
  }
  for (const field of Object.keys(filter)) {
    if (field.startsWith('$')) continue;
    const eq = equalityValue(filter, field);
    if (!eq) continue;
    const index = coll.singleFieldIndex(field);
    if (!index) continue;
    const ids = index.lookup(keyString([eq.value]));
    if (!ids) return;
    for (const recId of [...ids]) {
      const rec = coll.getById(recId, nowMs());
      if (rec) yield rec;
    }
    return;
  }
  yield* coll.scan(nowMs);
}
