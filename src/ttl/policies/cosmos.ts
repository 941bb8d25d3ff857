/**
 * The Cosmos DB policy (TTL.md, "Cosmos policy"): a container default TTL given by a TTL index on
 * `_ts`, a per-document override in the root field `ttl`, and expiry counted from the system
 * last-modified time (`StoredDocument.modifiedAtMs`, Cosmos `_ts`). Expired documents are
 * invisible at their expiry instant, before the reaper removes them.
 *
 *   container ↓ / document ttl →   absent or invalid   -1      n
 *   null (no _ts TTL index)        never               never   never
 *   -1                             never               never   n s after last modification
 *   m                              m s after           never   n s after last modification
 */
import { Double, Int32, Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../../storage/values/format.js';
import { INT32_MAX, INT32_MIN, exactInt32 } from '../../storage/values/numeric.js';

/** The key of the index that switches the Cosmos policy on (Cosmos `_ts`). */
export const COSMOS_TS_FIELD = '_ts';
/** The root field holding a document's own TTL. */
export const COSMOS_TTL_FIELD = 'ttl';
/** A container or document TTL meaning "never expires". */
export const NEVER = -1;

/** The error Azure Cosmos DB for MongoDB gives for a TTL index on any field but `_ts`. */
export const COSMOS_TS_ONLY_MESSAGE = "The 'expireAfterSeconds' option is supported on '_ts' field only.";

/** True when `key` is a single-field key on `_ts` (the Cosmos container TTL index). */
export function isCosmosTtlKey(key: unknown): boolean {
  if (key === null || typeof key !== 'object') return false;
  const fields = Object.keys(key as Document);
  return fields.length === 1 && fields[0] === COSMOS_TS_FIELD;
}

/**
 * Checks an `expireAfterSeconds` for the `_ts` index (createIndexes and collMod): -1 or
 * 1…2147483647 in any numeric type holding an integer. Returns it as an Int32 number; throws
 * 2 BadValue naming the allowed values otherwise.
 */
export function checkContainerTtl(value: unknown): number {
  const n = exactInt32(value);
  if (n === undefined || !(n === NEVER || n >= 1)) {
    throw new CommandError(
      'BadValue',
      `The 'expireAfterSeconds' option on '_ts' must be -1 (expiry on, no default) or an integer from 1 to ${INT32_MAX}, but received ${formatValue(value)}.`,
    );
  }
  return n;
}

/**
 * A document's own TTL in seconds when its root `ttl` is valid: an Int32, an Int64 within
 * Int32, or a Double with no fractional part within Int32, and -1 or ≥ 1. Undefined otherwise
 * (the container default applies; the value stays stored as sent).
 */
export function documentTtl(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (value instanceof Double || value instanceof Int32) n = value.value;
  else if (value instanceof Long) {
    if (value.greaterThan(INT32_MAX) || value.lessThan(INT32_MIN)) return undefined;
    n = value.toNumber();
  } else return undefined;
  if (!Number.isInteger(n) || n > INT32_MAX || n < INT32_MIN) return undefined;
  return n === NEVER || n >= 1 ? n : undefined;
}

/**
 * The TTL in seconds that applies under container TTL `containerTtl` (-1 = never) to a document
 * whose root `ttl` holds `ttlValue` (undefined: it has none).
 */
export function effectiveTtl(ttlValue: unknown, containerTtl: number): number {
  return documentTtl(ttlValue) ?? containerTtl;
}

/**
 * The instant (ms) a document expires, last modified at `modifiedAtMs`, whose root `ttl` holds
 * `ttlValue` (undefined: it has none); +Infinity for never.
 */
export function cosmosExpiryMs(ttlValue: unknown, modifiedAtMs: number, containerTtl: number): number {
  const ttl = effectiveTtl(ttlValue, containerTtl);
  return ttl === NEVER ? Infinity : modifiedAtMs + ttl * 1000;
}
