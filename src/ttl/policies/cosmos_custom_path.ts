/**
 * The Cosmos DB custom-path TTL (an account with the EnableTtlOnCustomPath capability, in
 * `--compat cosmos`): a TTL index on one field other than `_ts`, at most one per collection, and
 * then no `_ts` TTL index. A document expires `expireAfterSeconds` after the instant its field
 * holds: a Date, or a number read as Unix milliseconds (Int32, Int64, Double; NaN and infinities
 * never expire); in an array, the earliest such element. A missing field or one of another type
 * never expires. As with `_ts`, an expired document is invisible at once (TTL.md, Cosmos policy).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { MISSING, walkPath, type ParsedPath } from '../../storage/values/paths.js';
import { isCosmosTtlKey } from './cosmos.js';

/** The message for a second TTL index on a collection (no page gives one). */
export const ONE_TTL_INDEX_MESSAGE = 'A collection can have only one TTL index: on _ts or, with EnableTtlOnCustomPath, on one other field.';

/** The instant (ms) a value of the TTL field stands for: a Date's, or a finite number as Unix ms; undefined otherwise. */
export function customPathInstantMs(value: unknown): number | undefined {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isNaN(t) ? undefined : t;
  }
  if (isNumber(value)) {
    const n = toDouble(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** The earliest instant (ms) at `path` in `doc` (array elements included); undefined when none. */
export function earliestInstantMs(doc: Document, path: ParsedPath): number | undefined {
  let earliest = Infinity;
  walkPath(doc, path, true, (v) => {
    if (v !== MISSING) {
      const t = customPathInstantMs(v);
      if (t !== undefined && t < earliest) earliest = t;
    }
    return false;
  });
  return earliest === Infinity ? undefined : earliest;
}

/** The instant (ms) `doc` expires under a custom-path TTL index on `path`; +Infinity for never. */
export function customPathExpiryMs(doc: Document, path: ParsedPath, expireAfterSeconds: number): number {
  const at = earliestInstantMs(doc, path);
  return at === undefined ? Infinity : at + expireAfterSeconds * 1000;
}

/**
 * Throws 2 BadValue when `specs` (new indexes) and `existing` (the collection's) would hold more
 * than one TTL index, `_ts` or custom path.
 */
export function checkOneTtlIndex(specs: readonly Document[], existing: readonly Document[]): void {
  const ttl = [...existing, ...specs].filter((spec) => 'expireAfterSeconds' in spec);
  const names = new Set(ttl.map((spec) => String(spec.name)));
  if (names.size > 1) throw new CommandError('BadValue', ONE_TTL_INDEX_MESSAGE);
}

/** True when `key` is a custom-path TTL key: one plain field other than `_ts`. */
export function isCustomPathKey(key: Document): boolean {
  const fields = Object.keys(key);
  return fields.length === 1 && !isCosmosTtlKey(key) && isNumber(key[fields[0]!]);
}
