/**
 * How listCollections and listIndexes present time-series and clustered collections, as mongod
 * 8.2 does for a time-series collection backed by its buckets collection:
 *   - the time-series collection: `{ name, type: 'timeseries', options: { timeseries, ... },
 *     info: { readOnly: false } }` (no uuid, no idIndex), followed by
 *     `system.buckets.<name>`: `{ type: 'collection', options: { validator, clusteredIndex: true,
 *     timeseries, ... }, info: { readOnly: false, uuid } }`;
 *   - a clustered collection: its options (with `clusteredIndex` spelled out) and no idIndex.
 * listIndexes of a time-series collection shows its secondary indexes only (no `_id_`); of a
 * clustered collection, the cluster key first.
 */
import type { Document } from '../../bson/library.js';
import type { Collection } from '../collection.js';
import { clusteredIndexEntry, clusteredSpecOf } from '../clustered.js';
import { timeseriesOf } from './options.js';

/** The prefix of a time-series collection's buckets namespace. */
export const BUCKETS_PREFIX = 'system.buckets.';

/** The schema mongod sets on a buckets collection (structural only). */
function bucketsValidator(timeField: string): Document {
  const timeBound = { bsonType: 'object', required: [timeField], properties: { [timeField]: { bsonType: 'date' } } };
  return {
    $jsonSchema: {
      bsonType: 'object',
      required: ['_id', 'control', 'data'],
      properties: {
        _id: { bsonType: 'objectId' },
        control: {
          bsonType: 'object',
          required: ['version', 'min', 'max'],
          properties: {
            version: { bsonType: 'number' },
            min: timeBound,
            max: timeBound,
            closed: { bsonType: 'bool' },
            count: { bsonType: 'number', minimum: 1 },
          },
          additionalProperties: false,
        },
        data: { bsonType: 'object' },
        meta: {},
      },
      additionalProperties: false,
    },
  };
}

/** The listCollections entries of `coll` (two for a time-series collection). */
export function collectionEntries(coll: Collection, nameOnly: boolean): Document[] {
  const ts = timeseriesOf(coll.options);
  if (ts) {
    const bucketsName = `${BUCKETS_PREFIX}${coll.name}`;
    if (nameOnly) return [{ name: coll.name, type: 'timeseries' }, { name: bucketsName, type: 'collection' }];
    const { timeseries, ...rest } = coll.options;
    const bucketsOptions: Document = { validator: bucketsValidator(ts.timeField), clusteredIndex: true, ...rest, timeseries };
    return [
      { name: coll.name, type: 'timeseries', options: coll.options, info: { readOnly: false } },
      { name: bucketsName, type: 'collection', options: bucketsOptions, info: { readOnly: false, uuid: coll.uuid } },
    ];
  }
  if (nameOnly) return [{ name: coll.name, type: 'collection' }];
  const entry: Document = { name: coll.name, type: 'collection', options: coll.options, info: { readOnly: false, uuid: coll.uuid } };
  if (!clusteredSpecOf(coll.options)) entry.idIndex = coll.idIndex.spec;
  return [entry];
}

/** The specs listIndexes shows for `coll`. */
export function listedIndexSpecs(coll: Collection): Document[] {
  const specs = coll.indexSpecs();
  if (timeseriesOf(coll.options)) return specs.slice(1);
  if (clusteredSpecOf(coll.options)) return [clusteredIndexEntry(coll.options), ...specs.slice(1)];
  return specs;
}
