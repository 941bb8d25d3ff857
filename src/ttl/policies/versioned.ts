/**
 * The versioned policy (TTL.md "Versioned collections", Tablestore's "data versions and TTL",
 * ttl-reference.md §1.4 and §5): the `versioned` collection options and their rules, the write
 * range a client-given version must lie in, and when the reaper has versions of a row to purge.
 *
 *   maxVersions       ≥ 1                      default 1
 *   timeToLive        -1 (never) or ≥ 86400 s  default -1
 *   maxTimeDeviation  ≥ 1 s                    default 86400
 *   writable versions [max(now − maxTimeDeviation, now − timeToLive), now + maxTimeDeviation)  (ms)
 *
 * A version is readable while it is among its column's newest `maxVersions` and
 * `now − version ≤ timeToLive` (`versionExpiryMs`, `src/storage/versioned/limits.ts`).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, INT32_MAX, exactInt32 } from '../../storage/values/numeric.js';
import { DEFAULT_VERSION_LIMITS, TTL_FOREVER, versionExpiryMs, type VersionLimits } from '../../storage/versioned/limits.js';
import type { Cell } from '../../storage/versioned/store.js';

/** The limits model and the readability rule, defined beside the rows they govern. */
export { DEFAULT_VERSION_LIMITS, TTL_FOREVER, versionExpiryMs, type VersionLimits };

/** The smallest `timeToLive` other than -1: one day (Tablestore's rule). */
export const MIN_TIME_TO_LIVE = 86400;

/** The fields of a `versioned` option document, in the order they are stored and shown. */
export const VERSIONED_FIELDS = ['maxVersions', 'timeToLive', 'maxTimeDeviation'] as const;
/** One of `VERSIONED_FIELDS`. */
export type VersionedField = (typeof VERSIONED_FIELDS)[number];

/** What each field accepts, as the error messages say it. */
const ALLOWED: Readonly<Record<VersionedField, string>> = {
  maxVersions: `an integer from 1 to ${INT32_MAX}`,
  timeToLive: `-1 (versions never expire) or an integer number of seconds from ${MIN_TIME_TO_LIVE} to ${INT32_MAX}`,
  maxTimeDeviation: `an integer number of seconds from 1 to ${INT32_MAX}`,
};

function acceptable(field: VersionedField, n: number): boolean {
  switch (field) {
    case 'maxVersions':
    case 'maxTimeDeviation':
      return n >= 1;
    case 'timeToLive':
      return n === TTL_FOREVER || n >= MIN_TIME_TO_LIVE;
  }
}

/**
 * Parses a `versioned` option document of `command` ('create' or 'collMod') over `base` (the
 * defaults for create, the current limits for collMod): absent or null fields keep the base.
 * Unknown fields fail with 40415 and non-numbers with 14, as mongod's IDL does; numbers that are
 * not integers or out of range fail with 2 BadValue naming the allowed values.
 */
export function parseVersionedOptions(raw: unknown, command: string, base: VersionLimits = DEFAULT_VERSION_LIMITS): VersionLimits {
  const out: Record<VersionedField, number> = { ...base };
  for (const [field, value] of Object.entries(raw as Document)) {
    if (!(VERSIONED_FIELDS as readonly string[]).includes(field)) {
      throw new CommandError('IDLUnknownField', `BSON field '${command}.versioned.${field}' is an unknown field.`);
    }
    if (value === undefined || value === null) continue;
    if (!isNumber(value)) {
      throw new CommandError(
        'TypeMismatch',
        `BSON field '${command}.versioned.${field}' is the wrong type '${bsonTypeOf(value)}', expected types '[long, int, decimal, double']`,
      );
    }
    const name = field as VersionedField;
    const n = exactInt32(value);
    if (n === undefined || !acceptable(name, n)) {
      throw new CommandError('BadValue', `versioned.${name} must be ${ALLOWED[name]}, but received ${formatValue(value)}`);
    }
    out[name] = n;
  }
  return out;
}

/** The `versioned` document stored in the collection's options (Int32 fields, fixed order). */
export function versionedOptionsDocument(limits: VersionLimits): Document {
  return { maxVersions: limits.maxVersions, timeToLive: limits.timeToLive, maxTimeDeviation: limits.maxTimeDeviation };
}

/** The limits a collection's stored options ask for, or null when it is not versioned. */
export function limitsFromOptions(options: Document): VersionLimits | null {
  const doc = options.versioned;
  if (doc === undefined || doc === null || bsonTypeOf(doc) !== 'object') return null;
  return parseVersionedOptions(doc, 'create');
}

/** The versions writable at `nowMs`: `[minMs, maxMs)`. */
export interface WriteRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/** `[max(now − maxTimeDeviation, now − timeToLive), now + maxTimeDeviation)` in ms. */
export function writeRange(limits: VersionLimits, nowMs: number): WriteRange {
  const deviationMs = limits.maxTimeDeviation * 1000;
  let minMs = nowMs - deviationMs;
  if (limits.timeToLive !== TTL_FOREVER) minMs = Math.max(minMs, nowMs - limits.timeToLive * 1000);
  return { minMs, maxMs: nowMs + deviationMs };
}

/**
 * Checks every cell of a row write against the write range at `nowMs` before anything is
 * written; the first cell outside fails the whole row with Tablestore's text (2 BadValue):
 * `Invalid timestamp. Cell:<column>. Timestamp:<ms>. MinTimestamp:<ms>. MaxTimestamp:<ms>.`
 */
export function checkWriteRange(cells: readonly Cell[], limits: VersionLimits, nowMs: number): void {
  const range = writeRange(limits, nowMs);
  for (const cell of cells) {
    if (cell.ts < range.minMs || cell.ts >= range.maxMs) {
      throw new CommandError(
        'BadValue',
        `Invalid timestamp. Cell:${cell.column}. Timestamp:${cell.ts}. MinTimestamp:${range.minMs}. MaxTimestamp:${range.maxMs}.`,
      );
    }
  }
}
