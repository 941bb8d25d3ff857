/**
 * The MongoDB native policy (`--compat mongodb`, TTL.md): a TTL index on one field holding Dates.
 * A document expires once the earliest Date of that field (the earliest array element) is at or
 * before now − expireAfterSeconds; missing, null and non-Date values never expire; a partial
 * index only covers the documents its filter matches. Expired documents stay visible until a
 * reaper pass deletes them, as in mongod (`src/mongo/db/ttl/ttl.cpp`).
 *
 * Validation follows mongod 8.2's `index_key_validate::validateIndexSpecTTL` (createIndexes) and
 * the IDL `safeInt` conversion of `collMod` (saturating, NaN → 0).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { INT32_MAX, INT32_MIN, isNaNNumber, isNumber, safeNumberInt, safeNumberLong } from '../../storage/values/numeric.js';
import { MISSING, walkPath, type ParsedPath } from '../../storage/values/paths.js';

/** Why `value` is not a valid `expireAfterSeconds` for a secondary TTL index, or null. */
export function expireAfterSecondsProblem(value: unknown): string | null {
  if (!isNumber(value)) {
    // mongod's text has no closing quote after the type name.
    return `TTL index 'expireAfterSeconds' option must be numeric, but received a type of '${bsonTypeOf(value)}`;
  }
  if (isNaNNumber(value)) return "TTL index 'expireAfterSeconds' option must not be NaN";
  const n = safeNumberLong(value)!;
  if (n > INT32_MAX || n < INT32_MIN) return "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer";
  if (n < 0) return "TTL index 'expireAfterSeconds' option cannot be less than 0";
  return null;
}

/**
 * Checks the TTL options of a createIndexes spec as mongod 8.2 does (67 CannotCreateIndex, the
 * spec quoted as the client sent it) and returns the value to store: an Int32, fractions
 * truncated (Decimal128 rounded half to even).
 */
export function checkIndexTtl(value: unknown, key: Document, rawSpec: Document): number {
  const problem = expireAfterSecondsProblem(value);
  if (problem) throw new CommandError('CannotCreateIndex', `. Index spec: ${formatValue(rawSpec)} :: caused by :: ${problem}`);
  if (Object.keys(key).length !== 1) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: ${formatValue(rawSpec)}`,
    );
  }
  return safeNumberInt(value)!;
}

/**
 * `collMod`'s conversion of `index.expireAfterSeconds` (IDL `safeInt`): doubles truncated,
 * Decimal128 rounded half to even, values beyond Int32 clamped, NaN → 0. The caller rejects
 * negatives.
 */
export function collModSeconds(value: unknown): number {
  return safeNumberInt(value)!;
}

/** True when `key` is a plain ascending/descending key (a B-tree index the monitor can use). */
export function isBtreeKey(key: Document): boolean {
  const values = Object.values(key);
  return values.length === 1 && isNumber(values[0]);
}

/** The earliest Date (ms) at `path` in `doc`, array elements included; undefined when none. */
export function earliestDateMs(doc: Document, path: ParsedPath): number | undefined {
  let earliest = Infinity;
  walkPath(doc, path, true, (v) => {
    if (v !== MISSING && v instanceof Date) {
      const t = v.getTime();
      if (t < earliest) earliest = t;
    }
    return false;
  });
  return earliest === Infinity ? undefined : earliest;
}

/** The instant (ms) `doc` becomes deletable under a TTL index on `path`; +Infinity for never. */
export function nativeExpiryMs(doc: Document, path: ParsedPath, expireAfterSeconds: number): number {
  const date = earliestDateMs(doc, path);
  return date === undefined ? Infinity : date + expireAfterSeconds * 1000;
}
