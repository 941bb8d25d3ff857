/** Versions this server reports. */

/** The MongoDB release whose behaviour (wire version 25) Mayfly presents. */
export const MONGODB_VERSION = '8.0.0';
/** `buildInfo.versionArray` for `MONGODB_VERSION`. */
export const MONGODB_VERSION_ARRAY = [8, 0, 0, 0] as const;
/** Mayfly's own version (package.json). */
export const MAYFLY_VERSION = '0.1.0';
