/**
 * `create`'s time-series and clustered options (`timeseries`, `clusteredIndex`,
 * `expireAfterSeconds`), checked in mongod 8.2's order: the IDL types as the fields arrive (the
 * argument rules below), then `CmdCreate::typedRun` (create.cpp: the clustered creation options,
 * the options a time-series collection refuses, its field names, `expireAfterSeconds` only on
 * the two kinds), then `validateCollectionOptions` and `validateClusteredIndexSpec`
 * (create_collection.cpp) and the bucketing rules (timeseries_options.cpp).
 */
import { Long, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { checkClusteredSpec, parseClusteredIndex, type ClusteredRequest } from '../../../storage/clustered.js';
import { checkTimeseriesFields, parseTimeseriesDocument, settleBucketing, timeseriesDocument } from '../../../storage/timeseries/options.js';
import { safeNumberLong } from '../../../storage/values/numeric.js';
import { GENERIC_ARGUMENTS } from '../../args.js';
import type { ArgRule } from '../../types.js';

/** The fields this file decides for `create` (the caller stores what `collectionKindOptions` returns instead). */
export const KIND_FIELDS: ReadonlySet<string> = new Set(['timeseries', 'clusteredIndex', 'expireAfterSeconds']);

/** `create.timeseries`: the `TimeseriesOptions` IDL struct (null reads as absent). */
export const TIMESERIES_ARG: ArgRule = {
  type: 'object',
  parse(value) {
    if (value !== null) parseTimeseriesDocument('create.timeseries', value);
  },
};

/** `create.clusteredIndex`: `safeBool | ClusteredIndexSpec` (null is a type error). */
export const CLUSTERED_INDEX_ARG: ArgRule = {
  type: ['bool', 'object'],
  parse(value) {
    parseClusteredIndex(value);
  },
};

/** The options a time-series `create` accepts besides the generic ones (timeseries::kAllowedCollectionCreationOptions). */
const TIMESERIES_ALLOWED = new Set(['storageEngine', 'indexOptionDefaults', 'collation', 'timeseries', 'expireAfterSeconds', 'temp']);

/** mongod's text for an `expireAfterSeconds` beyond the clock or the millisecond range. */
const TOO_LARGE = "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number";

/**
 * `validateExpireAfterSeconds` for a collection-level TTL (clustered or time-series): not
 * negative, and its milliseconds neither overflow an Int64 nor exceed the current epoch.
 */
export function checkCollectionTtl(seconds: bigint, nowMs: number): void {
  if (seconds < 0n) throw new CommandError('InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0");
  if (seconds > 9223372036854775807n / 1000n) throw new CommandError('InvalidOptions', TOO_LARGE);
  if (seconds * 1000n > BigInt(Math.floor(nowMs))) throw new CommandError('InvalidOptions', TOO_LARGE);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * The time-series and clustered options of a `create` command, checked; the options to store
 * (`timeseries`, `clusteredIndex`, `expireAfterSeconds` as an Int64), or undefined for a plain
 * collection or view. `ns` is `<db>.<name>`.
 */
export function collectionKindOptions(ns: string, cmd: Document, nowMs: number): Document | undefined {
  const hasClustered = cmd.clusteredIndex !== undefined;
  const clustered: ClusteredRequest = hasClustered ? parseClusteredIndex(cmd.clusteredIndex) : null;
  const hasTimeseries = present(cmd.timeseries);
  const eas = present(cmd.expireAfterSeconds) ? safeNumberLong(cmd.expireAfterSeconds)! : undefined;
  if (hasClustered) {
    // clustered_util::checkCreationOptions
    const clusteredHint = "Did you mean 'capped: true' with 'expireAfterSeconds'?";
    if (present(cmd.size)) throw new CommandError(6049200, `'size' field for capped collections is not allowed on clustered collections. ${clusteredHint}`);
    if (present(cmd.max)) throw new CommandError(6049204, `'max' field for capped collections is not allowed on clustered collections. ${clusteredHint}`);
    if (cmd.capped === true) {
      throw new CommandError(6127800, "Clustered capped collection only available with 'enableTestCommands' server parameter");
    }
    if (hasTimeseries && clustered === null) {
      throw new CommandError('InvalidOptions', "Invalid option 'clusteredIndex: false': clustered index can't be disabled for timeseries collection");
    }
  }
  if (hasTimeseries && present(cmd.encryptedFields)) {
    throw new CommandError(6346401, 'Encrypted fields cannot be used with views or timeseries collections');
  }
  const name = ns.slice(ns.indexOf('.') + 1);
  if (!hasTimeseries && name.startsWith('system.buckets.')) {
    throw new CommandError('IllegalOperation', `Cannot create a time-series buckets collection ${ns} without the 'timeseries' option`);
  }
  if (hasTimeseries) {
    for (const [field, value] of Object.entries(cmd)) {
      if (field === 'create' || value === undefined || value === null || GENERIC_ARGUMENTS.has(field) || field.startsWith('$')) continue;
      if (field === 'capped' && value === false) continue;
      if (!TIMESERIES_ALLOWED.has(field)) throw new CommandError('InvalidOptions', `${ns}: 'timeseries' is not allowed with '${field}'`);
    }
    checkTimeseriesFields(ns, parseTimeseriesDocument('create.timeseries', cmd.timeseries));
  }
  if (eas !== undefined && !hasTimeseries && !hasClustered) {
    throw new CommandError('InvalidOptions', "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified");
  }
  if (hasClustered && present(cmd.viewOn)) throw new CommandError(6026500, "The 'clusteredIndex' option is not supported with views");
  // validateCollectionOptions
  if (eas !== undefined && clustered === null && !hasTimeseries) {
    throw new CommandError('InvalidOptions', "'expireAfterSeconds' can be used only for clustered collections or timeseries collections");
  }
  const out: Document = {};
  if (clustered) {
    if (clustered.legacy) {
      throw new CommandError(5979703, "The 'clusteredIndex' legacy format {clusteredIndex: <bool>} is only supported for specific internal collections and vice versa");
    }
    if (present(cmd.idIndex)) throw new CommandError('InvalidOptions', "The 'clusteredIndex' option is not supported with the 'idIndex' option");
    if (cmd.autoIndexId === false) throw new CommandError(6026501, "The 'clusteredIndex' option does not support {autoIndexId: false}");
    out.clusteredIndex = checkClusteredSpec(clustered.spec, () => {
      if (eas !== undefined) checkCollectionTtl(eas, nowMs);
    });
  }
  if (hasTimeseries) {
    const options = settleBucketing(parseTimeseriesDocument('create.timeseries', cmd.timeseries));
    if (eas !== undefined) checkCollectionTtl(eas, nowMs);
    out.timeseries = timeseriesDocument(options);
  }
  if (!clustered && !hasTimeseries) return undefined;
  if (eas !== undefined) out.expireAfterSeconds = Long.fromBigInt(eas);
  return out;
}
