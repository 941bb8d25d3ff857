/**
 * The table options of a versioned collection (Tablestore's `TableOptions`, TTL.md "Versioned
 * collections") and the one rule that turns them into readability: a version is readable while
 * it is among the newest `maxVersions` of its column and its age (now − version) does not exceed
 * `timeToLive` seconds. Limits are read at read time, so changing them takes effect at once.
 */

/** Max versions, TTL and max version offset of one versioned collection (seconds for the last two). */
export interface VersionLimits {
  /** Versions kept readable per column, newest first (≥ 1). */
  readonly maxVersions: number;
  /** Seconds a version stays readable after its timestamp; -1 = forever (else ≥ 86400). */
  readonly timeToLive: number;
  /** Seconds a client-given version may lie before or after now when it is written (≥ 1). */
  readonly maxTimeDeviation: number;
}

/** A `timeToLive` meaning "versions never expire". */
export const TTL_FOREVER = -1;

/** Tablestore's defaults: 1 version, no expiry, one day of offset. */
export const DEFAULT_VERSION_LIMITS: VersionLimits = Object.freeze({ maxVersions: 1, timeToLive: TTL_FOREVER, maxTimeDeviation: 86400 });

/**
 * The first instant (ms) at which a version stamped `tsMs` is past `timeToLive`: it is readable
 * while `now − tsMs ≤ timeToLive × 1000`, so that a version written at the write range's lower
 * bound (now − timeToLive) is readable when written, and at the seed's instant
 * 2016-07-21 00:00 UTC+8 "every version below 1468944000000 has expired" (TTL 86400).
 * +Infinity when `timeToLive` is -1.
 */
export function versionExpiryMs(tsMs: number, timeToLive: number): number {
  return timeToLive === TTL_FOREVER ? Infinity : tsMs + timeToLive * 1000 + 1;
}
