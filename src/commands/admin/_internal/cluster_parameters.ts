/**
 * mongod 8.2's cluster-wide parameters (`setClusterParameter` / `getClusterParameter`) that a
 * replica set or standalone knows: each with its default value and the parser of its IDL struct
 * (cluster_server_parameter.idl and the parameters' own .idl files), which checks a new value and
 * returns it as mongod stores it (numbers as Int64 where the IDL says `safeInt64`; an absent or
 * null field takes its default).
 */
import { Decimal128, Long, Timestamp, makeDouble, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isNumber, safeNumberLong, toDouble } from '../../../storage/values/numeric.js';
import { isDocument } from '../../../storage/values/paths.js';
import { NUMBER_TYPE_NAMES, typeMismatch } from '../../idl_errors.js';

/** One cluster parameter: its default value and the parser of a new one. */
export interface ClusterParameter {
  readonly defaults: () => Document;
  readonly parse: (value: Document) => Document;
}

type FieldParser = (value: unknown, path: string) => unknown;

const boolField: FieldParser = (value, path) => {
  if (typeof value !== 'boolean') throw typeMismatch(path, value, ['bool']);
  return value;
};
const longField = (min?: number): FieldParser => (value, path) => {
  if (!isNumber(value)) throw typeMismatch(path, value, NUMBER_TYPE_NAMES);
  const n = safeNumberLong(value)!;
  if (min !== undefined && n < BigInt(min)) {
    throw new CommandError('BadValue', `BSON field '${path}' value must be >= ${min}, actual value '${n}'`);
  }
  return Long.fromBigInt(n);
};
const intField: FieldParser = (value, path) => {
  if (!isNumber(value)) throw typeMismatch(path, value, NUMBER_TYPE_NAMES);
  const n = safeNumberLong(value)!;
  return Number(n > 2147483647n ? 2147483647n : n < -2147483648n ? -2147483648n : n);
};
const doubleField = (min: number, max: number): FieldParser => (value, path) => {
  if (!isNumber(value)) throw typeMismatch(path, value, NUMBER_TYPE_NAMES);
  const d = value instanceof Decimal128 ? toDouble(value) : toDouble(value);
  if (!(d >= min && d <= max)) throw new CommandError('BadValue', `BSON field '${path}' value must be between ${min} and ${max}, actual value '${d}'`);
  return makeDouble(d);
};

/** A strict IDL struct of scalar fields, each with a default (null or absent reads as the default). */
function struct(name: string, fields: Record<string, { parse: FieldParser; default: () => unknown }>): ClusterParameter {
  return {
    defaults: () => Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.default()])),
    parse(value) {
      for (const key of Object.keys(value)) {
        if (!(key in fields)) throw new CommandError('IDLUnknownField', `BSON field '${name}.${key}' is an unknown field.`);
      }
      const out: Document = {};
      for (const [key, field] of Object.entries(fields)) {
        const v = value[key];
        out[key] = v === undefined || v === null ? field.default() : field.parse(v, `${name}.${key}`);
      }
      return out;
    },
  };
}

/**
 * `changeStreamOptions` (change_stream_options.idl with its manager's validation): one field,
 * `preAndPostImages: {expireAfterSeconds: "off" | number >= 1}`; every fault is a 2 BadValue.
 */
const changeStreamOptions: ClusterParameter = {
  defaults: () => ({ preAndPostImages: { expireAfterSeconds: 'off' } }),
  parse(value) {
    const bad = (message: string) => new CommandError('BadValue', message);
    for (const key of Object.keys(value)) {
      if (key !== 'preAndPostImages') throw bad(`BSON field 'ChangeStreamOptionsClusterParam.${key}' is an unknown field.`);
    }
    const images = value.preAndPostImages;
    if (images === undefined) throw bad('Should specify at least one change stream option');
    if (!isDocument(images)) throw bad(`BSON field 'ChangeStreamOptionsClusterParam.preAndPostImages' is the wrong type, expected type 'object'`);
    for (const key of Object.keys(images)) {
      if (key !== 'expireAfterSeconds') throw bad(`BSON field 'ChangeStreamOptionsClusterParam.preAndPostImages.${key}' is an unknown field.`);
    }
    const expire = images.expireAfterSeconds;
    if (expire === undefined || expire === null) return { preAndPostImages: { expireAfterSeconds: 'off' } };
    if (typeof expire === 'string') {
      if (expire !== 'off') throw bad(`Invalid value for 'preAndPostImages.expireAfterSeconds': '${expire}'; it must be 'off' or a positive number of seconds`);
      return { preAndPostImages: { expireAfterSeconds: 'off' } };
    }
    if (!isNumber(expire)) throw bad("'preAndPostImages.expireAfterSeconds' must be 'off' or a number of seconds");
    const n = safeNumberLong(expire)!;
    if (n < 1n) throw bad(`Invalid value for 'preAndPostImages.expireAfterSeconds': ${n}; it must be 'off' or at least 1`);
    return { preAndPostImages: { expireAfterSeconds: Long.fromBigInt(n) } };
  },
};

const false_ = () => false;

/** The parameters, by name (sorted). */
export const CLUSTER_PARAMETERS: ReadonlyMap<string, ClusterParameter> = new Map<string, ClusterParameter>([
  ['addOrRemoveShardInProgress', struct('addOrRemoveShardInProgress', { inProgress: { parse: boolField, default: false_ } })],
  ['changeStreamOptions', changeStreamOptions],
  ['changeStreams', struct('changeStreams', { expireAfterSeconds: { parse: longField(1), default: () => Long.fromNumber(3600) } })],
  ['configServerReadPreferenceForCatalogQueries', struct('configServerReadPreferenceForCatalogQueries', { mustAlwaysUseNearest: { parse: boolField, default: false_ } })],
  ['defaultMaxTimeMS', struct('defaultMaxTimeMS', { readOperations: { parse: longField(0), default: () => Long.fromNumber(0) } })],
  [
    'fleCompactionOptions',
    struct('fleCompactionOptions', {
      maxCompactionSize: { parse: intField, default: () => 268435456 },
      maxAnchorCompactionSize: { parse: intField, default: () => 268435456 },
      maxESCEntriesPerCompactionDelete: { parse: intField, default: () => 350000 },
    }),
  ],
  ['fleDisableSubstringPreviewParameterLimits', struct('fleDisableSubstringPreviewParameterLimits', { shouldOverride: { parse: boolField, default: false_ } })],
  ['internalQueryCutoffForSampleFromRandomCursor', struct('internalQueryCutoffForSampleFromRandomCursor', { sampleCutoff: { parse: doubleField(0, 1), default: () => makeDouble(0.05) } })],
  ['pauseMigrationsDuringMultiUpdates', struct('pauseMigrationsDuringMultiUpdates', { enabled: { parse: boolField, default: false_ } })],
  ['shardedClusterCardinalityForDirectConns', struct('shardedClusterCardinalityForDirectConns', { hasTwoOrMoreShards: { parse: boolField, default: false_ } })],
]);

/** A parameter as getClusterParameter reports it: `{_id, clusterParameterTime, ...value}`. */
export function clusterParameterDocument(name: string, stored: Document | undefined): Document {
  const param = CLUSTER_PARAMETERS.get(name)!;
  return stored ?? { _id: name, clusterParameterTime: new Timestamp({ t: 0, i: 0 }), ...param.defaults() };
}
