/**
 * The options of a time-series collection, as mongod 8.2 parses, checks and stores them:
 * `{ timeField, metaField?, granularity?, bucketRoundingSeconds?, bucketMaxSpanSeconds? }`.
 *
 * Parsing follows the IDL struct `TimeseriesOptions` (timeseries.idl): `timeField` a required
 * string (null reads as missing, 40414), `metaField` an optional string, `granularity` the enum
 * `seconds | minutes | hours` (2 BadValue otherwise), the two bucket fields `safeInt` in
 * [1, 31536000] (2 BadValue), any other field 40415. The bucketing rules and the stored shape
 * follow `timeseries::validateAndSetBucketingParameters` (timeseries_options.cpp): a granularity
 * fixes the span (3600, 86400, 2592000 s) and the rounding; custom bucketing needs both fields,
 * equal; none at all means `granularity: 'seconds'`. The stored document is what listCollections
 * shows: `timeField`, `metaField`, then `granularity` and `bucketMaxSpanSeconds`, or the two
 * custom fields without a granularity.
 * Sources: mongo/src/mongo/db/timeseries/timeseries.idl, timeseries_options.cpp,
 * timeseries_collmod.cpp.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isNumber, safeNumberInt } from '../values/numeric.js';
import { isDocument } from '../values/paths.js';

/** The bucket granularities, coarsest last. */
export const GRANULARITIES = ['seconds', 'minutes', 'hours'] as const;

/** A bucket granularity. */
export type Granularity = (typeof GRANULARITIES)[number];

/** The largest `bucketMaxSpanSeconds`/`bucketRoundingSeconds` (one year). */
export const MAX_BUCKET_SECONDS = 31536000;

/** The options of a time-series collection, as stored. */
export interface TimeseriesOptions {
  readonly timeField: string;
  readonly metaField?: string;
  readonly granularity?: Granularity;
  readonly bucketRoundingSeconds?: number;
  readonly bucketMaxSpanSeconds: number;
}

/** `bucketMaxSpanSeconds` a granularity implies. */
export function maxSpanSecondsOf(granularity: Granularity): number {
  return granularity === 'seconds' ? 3600 : granularity === 'minutes' ? 86400 : 2592000;
}

/** `bucketRoundingSeconds` a granularity implies. */
export function roundingSecondsOf(granularity: Granularity): number {
  return granularity === 'seconds' ? 60 : granularity === 'minutes' ? 3600 : 86400;
}

function wrongType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A granularity as the IDL enum parses it (14 for a non-string, 2 for an unknown name). */
export function parseGranularity(path: string, value: unknown): Granularity {
  if (typeof value !== 'string') throw wrongType(path, value, 'string');
  if (!(GRANULARITIES as readonly string[]).includes(value)) {
    throw new CommandError('BadValue', `Enumeration value '${value.length > 100 ? `${value.slice(0, 100)}...` : value}' for field '${path}' is not a valid value.`);
  }
  return value as Granularity;
}

/** A bucket field as the IDL `safeInt` with its validators parses it. */
export function parseBucketSeconds(path: string, field: string, value: unknown): number {
  if (!isNumber(value)) {
    throw new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected types '[long, int, decimal, double']`);
  }
  const n = safeNumberInt(value)!;
  if (n < 1) throw new CommandError('BadValue', `BSON field '${field}' value must be >= 1, actual value '${n}'`);
  if (n > MAX_BUCKET_SECONDS) throw new CommandError('BadValue', `BSON field '${field}' value must be <= ${MAX_BUCKET_SECONDS}, actual value '${n}'`);
  return n;
}

/** A `timeseries` document as the IDL parses it, before the bucketing rules. */
export interface ParsedTimeseries {
  timeField: string;
  metaField?: string;
  granularity?: Granularity;
  bucketRoundingSeconds?: number;
  bucketMaxSpanSeconds?: number;
}

function checkFieldName(kind: 'timeField' | 'metaField', name: string): void {
  if (name.includes('\0')) throw new CommandError('BadValue', `'${kind}' cannot contain embedded null bytes`);
}

/**
 * Parses `create.timeseries` (`idl` is the path prefix, `create.timeseries`): the IDL's type,
 * enum, range, unknown-field and missing-field errors, in field order.
 */
export function parseTimeseriesDocument(idl: string, value: unknown): ParsedTimeseries {
  if (!isDocument(value)) throw wrongType(idl, value, 'object');
  const out: Partial<ParsedTimeseries> = {};
  for (const [field, v] of Object.entries(value)) {
    const path = `${idl}.${field}`;
    if (field === 'timeField' || field === 'metaField') {
      if (!present(v)) continue;
      if (typeof v !== 'string') throw wrongType(path, v, 'string');
      checkFieldName(field, v);
      out[field] = v;
    } else parseBucketingField(out, field, path, v);
  }
  if (out.timeField === undefined) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.timeField' is missing but a required field`);
  return out as ParsedTimeseries;
}

/**
 * The checks of `create` on the field names (create.cpp: a top-level `timeField`, a `metaField`
 * that is not `_id`, not the `timeField` and top-level), `ns` naming the collection.
 */
export function checkTimeseriesFields(ns: string, parsed: ParsedTimeseries): void {
  const mustBeTopLevel = (field: string) => `${ns}: '${field}' must be a top-level field and not contain a '.'`;
  if (parsed.timeField.includes('.')) throw new CommandError('InvalidOptions', mustBeTopLevel('timeField'));
  const meta = parsed.metaField;
  if (meta !== undefined) {
    if (meta === '_id') throw new CommandError('InvalidOptions', `'metaField' cannot be "_id"`);
    if (meta === parsed.timeField) throw new CommandError('InvalidOptions', "'metaField' cannot be the same as 'timeField'");
    if (meta.includes('.')) throw new CommandError('InvalidOptions', mustBeTopLevel('metaField'));
  }
}

/** The bucketing rules of `validateAndSetBucketingParameters`; the options as stored. */
export function settleBucketing(parsed: ParsedTimeseries): TimeseriesOptions {
  const { granularity, bucketRoundingSeconds: rounding, bucketMaxSpanSeconds: span } = parsed;
  const base = { timeField: parsed.timeField, ...(parsed.metaField !== undefined ? { metaField: parsed.metaField } : {}) };
  if (granularity) {
    const defaultSpan = maxSpanSecondsOf(granularity);
    if (span !== undefined && span !== defaultSpan) {
      throw new CommandError(
        'InvalidOptions',
        `Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of ${defaultSpan} for the provided granularity`,
      );
    }
    const defaultRounding = roundingSecondsOf(granularity);
    if (rounding !== undefined && rounding !== defaultRounding) {
      throw new CommandError(
        'InvalidOptions',
        `Timeseries 'bucketRoundingSeconds' is not configurable to a value other than the default of ${defaultRounding} for the provided granularity`,
      );
    }
    return { ...base, granularity, bucketMaxSpanSeconds: defaultSpan };
  }
  if ((span === undefined) !== (rounding === undefined)) {
    throw new CommandError('InvalidOptions', "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other");
  }
  if (rounding !== span) throw new CommandError('InvalidOptions', "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'");
  if (span === undefined) return { ...base, granularity: 'seconds', bucketMaxSpanSeconds: maxSpanSecondsOf('seconds') };
  return { ...base, bucketRoundingSeconds: rounding!, bucketMaxSpanSeconds: span };
}

/** The options as listCollections shows them (IDL field order). */
export function timeseriesDocument(options: TimeseriesOptions): Document {
  const out: Document = { timeField: options.timeField };
  if (options.metaField !== undefined) out.metaField = options.metaField;
  if (options.granularity !== undefined) out.granularity = options.granularity;
  if (options.bucketRoundingSeconds !== undefined) out.bucketRoundingSeconds = options.bucketRoundingSeconds;
  out.bucketMaxSpanSeconds = options.bucketMaxSpanSeconds;
  return out;
}

/** The time-series options of collection options, if it is a time-series collection. */
export function timeseriesOf(collectionOptions: Document): TimeseriesOptions | undefined {
  const ts = collectionOptions.timeseries;
  return isDocument(ts) ? (ts as unknown as TimeseriesOptions) : undefined;
}

/** The effective rounding of stored options (a granularity's, else the custom one). */
function effectiveRounding(options: TimeseriesOptions): number {
  return options.granularity ? roundingSecondsOf(options.granularity) : (options.bucketRoundingSeconds ?? roundingSecondsOf('seconds'));
}

/** A parsed `collMod.timeseries` document. */
export interface TimeseriesChange {
  granularity?: Granularity;
  bucketRoundingSeconds?: number;
  bucketMaxSpanSeconds?: number;
}

/**
 * Parses `collMod.timeseries` (`CollModTimeseries`: granularity, bucketRoundingSeconds,
 * bucketMaxSpanSeconds; `timeField`, `metaField` and anything else 40415).
 */
export function parseTimeseriesChange(value: unknown): TimeseriesChange {
  const idl = 'collMod.timeseries';
  if (!isDocument(value)) throw wrongType(idl, value, 'object');
  const out: TimeseriesChange = {};
  for (const [field, v] of Object.entries(value)) parseBucketingField(out, field, `${idl}.${field}`, v);
  return out;
}

/**
 * One bucketing field of `create`'s or `collMod`'s `timeseries` (`granularity`,
 * `bucketRoundingSeconds`, `bucketMaxSpanSeconds`) into `out`; any other field is 40415.
 */
function parseBucketingField(out: TimeseriesChange, field: string, path: string, v: unknown): void {
  switch (field) {
    case 'granularity':
      if (present(v)) out.granularity = parseGranularity(path, v);
      return;
    case 'bucketRoundingSeconds':
    case 'bucketMaxSpanSeconds':
      if (present(v)) out[field] = parseBucketSeconds(path, field, v);
      return;
    default:
      throw new CommandError('IDLUnknownField', `BSON field '${path}' is an unknown field.`);
  }
}

/**
 * The options after `change` (timeseries_collmod.cpp `applyTimeseriesOptionsModifications` and
 * `isValidTimeseriesGranularityTransition`): granularity only coarser, custom bucketing only
 * wider, both bucket fields together and equal; 72 InvalidOptions otherwise. Returns the current
 * options when nothing changes.
 */
export function applyTimeseriesChange(current: TimeseriesOptions, change: TimeseriesChange): TimeseriesOptions {
  const { granularity: target, bucketRoundingSeconds: rounding, bucketMaxSpanSeconds: span } = change;
  if (target) {
    if (span !== undefined && span !== maxSpanSecondsOf(target)) {
      throw new CommandError(
        'InvalidOptions',
        `Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of ${maxSpanSecondsOf(target)} for the provided granularity`,
      );
    }
    if (rounding !== undefined && rounding !== roundingSecondsOf(target)) {
      throw new CommandError(
        'InvalidOptions',
        `Timeseries 'bucketRoundingSeconds' is not configurable to a value other than the default of ${roundingSecondsOf(target)} for the provided granularity`,
      );
    }
    const currentGranularity = current.granularity;
    if (currentGranularity === undefined) {
      // Custom bucketing: a granularity is allowed only when its rounding is not finer.
      if (roundingSecondsOf(target) < effectiveRounding(current) || maxSpanSecondsOf(target) < current.bucketMaxSpanSeconds) {
        throw new CommandError(
          'InvalidOptions',
          'Cannot change the granularity to one with a lower bucketRoundingSeconds or bucketMaxSpanSeconds than the current bucketing parameters',
        );
      }
    } else if (currentGranularity !== target && GRANULARITIES.indexOf(target) < GRANULARITIES.indexOf(currentGranularity)) {
      throw new CommandError(
        'InvalidOptions',
        "Invalid transition for timeseries.granularity. Can only transition from 'seconds' to 'minutes' or 'minutes' to 'hours'.",
      );
    }
    if (currentGranularity === target) return current;
    const { bucketRoundingSeconds: _dropped, ...rest } = current;
    return { ...rest, granularity: target, bucketMaxSpanSeconds: maxSpanSecondsOf(target) };
  }
  if (span === undefined && rounding === undefined) return current;
  if (span === undefined || rounding === undefined) {
    throw new CommandError('InvalidOptions', "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other");
  }
  if (span !== rounding) throw new CommandError('InvalidOptions', "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'");
  if (span < current.bucketMaxSpanSeconds) {
    throw new CommandError('InvalidOptions', 'Timeseries bucketMaxSpanSeconds needs to be greater than or equal to the current value');
  }
  if (rounding < effectiveRounding(current)) {
    throw new CommandError('InvalidOptions', 'Timeseries bucketRoundingSeconds needs to be greater than or equal to the current value');
  }
  const { granularity: _g, ...rest } = current;
  return { ...rest, bucketRoundingSeconds: rounding, bucketMaxSpanSeconds: span };
}
