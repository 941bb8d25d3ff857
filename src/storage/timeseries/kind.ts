/**
 * What a time-series or clustered collection changes in its collection's behaviour, as a
 * `CollectionKind` the collection consults (the `kind` field of `Collection`, like `capped`):
 *   - inserts: a time-series measurement needs its `timeField` to be a BSON date (2 BadValue),
 *     as mongod's bucket catalog checks it; a clustered collection refuses an `_id` whose RecordId
 *     would exceed 8 MB (5894900);
 *   - natural order: measurements grouped by `metaField` value and ordered by time within a
 *     group, as mongod returns them bucket by bucket; clustered documents in `_id` order.
 * Measurements are stored as ordinary records (no buckets are materialised).
 * Sources: mongo/src/mongo/db/timeseries/bucket_catalog/bucket_catalog_internal.cpp (extractTime),
 * mongo/src/mongo/db/record_id_helpers.cpp (5894900).
 */
import { Binary, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { clusteredOrder, clusteredSpecOf } from '../clustered.js';
import { documentFields, type StoredDocument } from '../record.js';
import { compareValues } from '../values/compare.js';
import { isNaNNumber, isNumber, safeNumberLong, toDouble } from '../values/numeric.js';
import { timeseriesOf } from './options.js';

/** The behaviour a collection kind adds. */
export interface CollectionKind {
  /** Checks a document about to be inserted (after `_id` was added). */
  checkInsert(doc: Document): void;
  /** The records in natural order. */
  naturalOrder(records: Iterable<StoredDocument>): StoredDocument[];
  /**
   * The error for an insert whose `_id` a visible record already holds, when the kind has its
   * own (undefined: the usual 11000).
   */
  duplicateIdError?(id: unknown): CommandError | undefined;
  /** Checks an update statement before it runs (72 InvalidOptions where the kind refuses it). */
  checkUpdate(update: UpdateShape, multi: boolean, upsert: boolean): void;
}

/** What `checkUpdate` needs of a compiled update. */
export interface UpdateShape {
  readonly kind: 'replacement' | 'operators' | 'pipeline';
  /** The top-level fields it may change (null: any). */
  readonly changedFields: readonly string[] | null;
}

/**
 * mongod's restrictions on updating a time-series collection (the measurement-level update
 * rules it applies to the buckets): multi-document only, no upsert, an operator update whose
 * every path is inside the `metaField`.
 */
function checkTimeseriesUpdate(metaField: string | undefined, update: UpdateShape, multi: boolean, upsert: boolean): void {
  if (!multi) throw new CommandError('InvalidOptions', 'Cannot perform a non-multi update on a time-series collection');
  if (upsert) throw new CommandError('InvalidOptions', 'Cannot perform an upsert on a time-series collection');
  if (update.kind !== 'operators') {
    throw new CommandError('InvalidOptions', `Cannot perform an update on a time-series collection using a ${update.kind === 'pipeline' ? 'pipeline' : 'replacement document'}`);
  }
  const fields = update.changedFields;
  if (metaField === undefined || fields === null || fields.some((f) => f !== metaField)) {
    throw new CommandError('InvalidOptions', 'Cannot perform an update on a time-series collection that updates fields that are not the metaField');
  }
}

/** The most bytes of a clustered collection's RecordId (`_id` as a key string). */
export const MAX_CLUSTERED_RECORD_ID_BYTES = 8 * 1024 * 1024;

/** The size of `id` as a RecordId key string: strings and binaries with their framing; others small. */
function recordIdBytes(id: unknown): number {
  if (typeof id === 'string') return Buffer.byteLength(id, 'utf8') + 2;
  if (id instanceof Binary) return id.length() + 7;
  return 0;
}

/** The kind of a collection with these options, or null for an ordinary one. */
export function collectionKindOf(options: Document): CollectionKind | null {
  const ts = timeseriesOf(options);
  if (ts) {
    const { timeField, metaField } = ts;
    const fields = metaField === undefined ? [timeField] : [metaField, timeField];
    return {
      checkInsert(doc) {
        if (!(doc[timeField] instanceof Date)) {
          throw new CommandError('BadValue', `'${timeField}' must be present and contain a valid BSON UTC datetime value`);
        }
      },
      checkUpdate(update, multi, upsert) {
        checkTimeseriesUpdate(metaField, update, multi, upsert);
      },
      naturalOrder(records) {
        const keyed = [...records].map((rec, seq) => ({ rec, seq, doc: documentFields(rec, fields) }));
        keyed.sort((a, b) => {
          if (metaField !== undefined) {
            const byMeta = compareValues(a.doc[metaField] ?? null, b.doc[metaField] ?? null);
            if (byMeta !== 0) return byMeta;
          }
          const byTime = compareValues(a.doc[timeField], b.doc[timeField]);
          return byTime !== 0 ? byTime : a.seq - b.seq;
        });
        return keyed.map((k) => k.rec);
      },
    };
  }
  if (clusteredSpecOf(options)) {
    return {
      checkInsert(doc) {
        const bytes = recordIdBytes(doc._id);
        if (bytes > MAX_CLUSTERED_RECORD_ID_BYTES) {
          throw new CommandError(5894900, `Size of RecordId is above limit of ${MAX_CLUSTERED_RECORD_ID_BYTES} bytes`);
        }
      },
      naturalOrder: clusteredOrder,
      checkUpdate() {},
      // The RecordId of a clustered record is its `_id`'s key: a NaN or an infinite `_id` already
      // stored fails the record store's own checks, not the `_id` index's 11000.
      duplicateIdError(id) {
        if (!isNumber(id)) return undefined;
        if (isNaNNumber(id)) return new CommandError(50819, 'Cannot insert a second record with a NaN _id into a clustered collection');
        const d = toDouble(id);
        if (d === Infinity || d === -Infinity) return new CommandError(50826, 'Cannot insert a second record with an infinite _id into a clustered collection');
        return undefined;
      },
    };
  }
  return null;
}

/** The indexes mongod builds with a time-series collection: `{<metaField>: 1, <timeField>: 1}` when it has a metaField. */
export function defaultIndexSpecs(options: Document): Document[] {
  const ts = timeseriesOf(options);
  if (!ts || ts.metaField === undefined) return [];
  return [{ v: 2, key: { [ts.metaField]: 1, [ts.timeField]: 1 }, name: `${ts.metaField}_1_${ts.timeField}_1` }];
}

/**
 * The collection-level TTL of a time-series or clustered collection (`expireAfterSeconds` in its
 * options): the field whose Date decides (the timeField, or `_id`) and the seconds; null when
 * it has none.
 */
export function collectionTtlOf(options: Document): { path: string; seconds: number } | null {
  const seconds = options.expireAfterSeconds;
  if (seconds === undefined || seconds === null) return null;
  const ts = timeseriesOf(options);
  const path = ts ? ts.timeField : clusteredSpecOf(options) ? '_id' : null;
  if (path === null) return null;
  return { path, seconds: Number(safeNumberLong(seconds)!) };
}
