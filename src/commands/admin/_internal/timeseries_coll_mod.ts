/**
 * `collMod` on time-series and clustered collections (coll_mod.cpp `parseCollModRequest`,
 * timeseries_collmod.cpp): `timeseries: { granularity?, bucketRoundingSeconds?,
 * bucketMaxSpanSeconds? }` (only on a time-series collection, only coarser or wider),
 * `expireAfterSeconds: <seconds> | 'off'` (only on a collection clustered by `_id`, which a
 * time-series collection is), and the options a time-series collection refuses. On a clustered
 * collection the cluster key is not an index collMod can find or hide.
 */
import { Long, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { clusteredSpecOf, isClusterKey } from '../../../storage/clustered.js';
import type { Collection } from '../../../storage/collection.js';
import { applyTimeseriesChange, parseTimeseriesChange, timeseriesDocument, timeseriesOf } from '../../../storage/timeseries/options.js';
import { formatValue } from '../../../storage/values/format.js';
import { isNumber, safeNumberLong } from '../../../storage/values/numeric.js';
import { isDocument } from '../../../storage/values/paths.js';
import { typeMismatch } from '../../args.js';
import type { ArgRule } from '../../types.js';
import { checkCollectionTtl } from './timeseries_options.js';

/** `collMod.expireAfterSeconds`: the IDL variant `string | safeInt64` (null is a type error). */
export const COLLMOD_EXPIRE_ARG: ArgRule = {
  type: ['string', 'number'],
  parse(value) {
    if (typeof value !== 'string' && !isNumber(value)) throw typeMismatch('collMod.expireAfterSeconds', value, ['string', 'long']);
  },
};

/** `collMod.timeseries`: the `CollModTimeseries` IDL struct (null reads as absent). */
export const COLLMOD_TIMESERIES_ARG: ArgRule = {
  type: 'object',
  parse(value) {
    if (value !== null) parseTimeseriesChange(value);
  },
};

/** Options a time-series collection refuses in collMod. */
const NOT_ON_TIMESERIES = ['validator', 'validationLevel', 'validationAction', 'changeStreamPreAndPostImages'];

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Checks the time-series and clustered parts of a collMod on `coll` (72 InvalidOptions where
 * mongod refuses them) and returns the function that turns the collection's options into the
 * new ones, or null when they are not touched.
 */
export function planKindChange(coll: Collection, cmd: Document, nowMs: number): ((options: Document) => Document) | null {
  const ts = timeseriesOf(coll.options);
  const clustered = clusteredSpecOf(coll.options) !== undefined;
  if (ts) {
    for (const field of NOT_ON_TIMESERIES) {
      if (present(cmd[field])) throw new CommandError('InvalidOptions', `option not supported on a time-series collection: ${field}`);
    }
  }
  if (clustered && isDocument(cmd.index)) {
    const index = cmd.index;
    if (index.name === '_id_' && present(index.hidden)) throw new CommandError(6011800, 'The clustered index is not hideable');
    if (isDocument(index.keyPattern) && isClusterKey(index.keyPattern)) {
      throw new CommandError('IndexNotFound', `cannot find index ${formatValue(index.keyPattern)} for ns ${coll.ns}`);
    }
  }
  let ttl: Long | 'off' | undefined;
  if (present(cmd.expireAfterSeconds)) {
    if (!ts && !clustered) throw new CommandError('InvalidOptions', "'expireAfterSeconds' option is only supported on collections clustered by _id");
    const value = cmd.expireAfterSeconds;
    if (typeof value === 'string') {
      if (value !== 'off') {
        throw new CommandError(
          'InvalidOptions',
          `Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got value: ${value}. The only accepted string value is 'off'`,
        );
      }
      ttl = 'off';
    } else {
      const seconds = safeNumberLong(value)!;
      checkCollectionTtl(seconds, nowMs);
      ttl = Long.fromBigInt(seconds);
    }
  }
  let timeseries: Document | undefined;
  if (present(cmd.timeseries)) {
    if (!ts) throw new CommandError('InvalidOptions', 'option only supported on a time-series collection: timeseries');
    const next = applyTimeseriesChange(ts, parseTimeseriesChange(cmd.timeseries));
    if (next !== ts) timeseries = timeseriesDocument(next);
  }
  if (present(cmd.timeseriesBucketsMayHaveMixedSchemaData) && !ts) {
    throw new CommandError('InvalidOptions', 'option only supported on a time-series collection: timeseriesBucketsMayHaveMixedSchemaData');
  }
  if (ttl === undefined && timeseries === undefined) return null;
  return (options) => {
    const out: Document = { ...options };
    if (timeseries) out.timeseries = timeseries;
    if (ttl === 'off') delete out.expireAfterSeconds;
    else if (ttl !== undefined) out.expireAfterSeconds = ttl;
    return out;
  };
}
