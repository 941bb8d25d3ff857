/**
 * What a time-series or clustered collection changes in its collection's behaviour, as a
 * `CollectionKind` the collection consults (the `kind` field of `Collection`, like `capped`):
 *   - inserts: a time-series measurement needs its `timeField` to be a BSON date (5743702), as
 *     mongod's bucket catalog checks it; a clustered collection refuses an `_id` whose RecordId
 *     would exceed 8 MB (5894900);
 *   - natural order: measurements grouped by `metaField` value and ordered by time within a
 *     group, as mongod returns them bucket by bucket; clustered documents in `_id` order.
 * Measurements are stored as ordinary records (no buckets are materialised).
 * Sources: mongo/src/mongo/db/timeseries/bucket_catalog/ (5743702),
 * mongo/src/mongo/db/record_id_helpers.cpp (5894900).
 */
import { Binary, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { clusteredOrder, clusteredSpecOf } from '../clustered.js';
import { documentFields, type StoredDocument } from '../record.js';
import { compareValues } from '../values/compare.js';
import { timeseriesOf } from './options.js';

/** The behaviour a collection kind adds. */
export interface CollectionKind {
  /** Checks a document about to be inserted (after `_id` was added). */
  checkInsert(doc: Document): void;
  /** The records in natural order. */
  naturalOrder(records: Iterable<StoredDocument>): StoredDocument[];
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
          throw new CommandError(5743702, `Timeseries time field '${timeField}' must be present and contain a valid BSON UTC datetime value`);
        }
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
    };
  }
  return null;
}
