/**
 * The TTL monitor's server parameters, as mongod 8.2 declares them in `src/mongo/db/ttl/ttl.idl`
 * (names, defaults and validators). The server registers them in its `ParameterTable`, so that
 * `getParameter`, `setParameter` and the command line (`--ttl-monitor-sleep-secs`, ...) see them.
 */

/** Current values of the TTL parameters. */
export interface TtlSettings {
  /** `ttlMonitorEnabled`: when false the monitor wakes up but runs (and counts) no pass. */
  enabled: boolean;
  /** `ttlMonitorSleepSecs` (> 0): seconds between passes. */
  sleepSecs: number;
  /** `ttlIndexDeleteTargetDocs` (≥ 0, 0 = unlimited): deletions per index per sub-pass. */
  deleteTargetDocs: number;
  /** `ttlIndexDeleteTargetTimeMS` (≥ 0, 0 = unlimited): time per index per sub-pass. */
  deleteTargetTimeMs: number;
  /** `ttlMonitorSubPassTargetSecs` (≥ 0): how long a sub-pass keeps revisiting indexes. */
  subPassTargetSecs: number;
  /** `ttlMonitorBatchDeletes`: accepted for compatibility; deletions are always batched. */
  batchDeletes: boolean;
}

/** mongod's defaults. */
export const DEFAULT_TTL_SETTINGS: Readonly<TtlSettings> = Object.freeze({
  enabled: true,
  sleepSecs: 60,
  deleteTargetDocs: 50_000,
  deleteTargetTimeMs: 1000,
  subPassTargetSecs: 60,
  batchDeletes: true,
});

/** One TTL parameter: mongod's name, the setting it reads and writes, its type and bounds. */
export type TtlParameter =
  | { readonly name: string; readonly type: 'bool'; readonly setting: 'enabled' | 'batchDeletes' }
  | {
      readonly name: string;
      readonly type: 'int';
      readonly setting: 'sleepSecs' | 'deleteTargetDocs' | 'deleteTargetTimeMs' | 'subPassTargetSecs';
      readonly bounds: { readonly gt?: number; readonly gte?: number };
    };

/**
 * The TTL parameters (ttl.idl), registered by the server (src/server/server_parameters.ts) over
 * the engine's `settings`; a change goes through `TtlEngine.setSetting`.
 */
export const TTL_PARAMETERS: readonly TtlParameter[] = [
  { name: 'ttlMonitorEnabled', type: 'bool', setting: 'enabled' },
  { name: 'ttlMonitorSleepSecs', type: 'int', setting: 'sleepSecs', bounds: { gt: 0 } },
  { name: 'ttlIndexDeleteTargetDocs', type: 'int', setting: 'deleteTargetDocs', bounds: { gte: 0 } },
  { name: 'ttlIndexDeleteTargetTimeMS', type: 'int', setting: 'deleteTargetTimeMs', bounds: { gte: 0 } },
  { name: 'ttlMonitorSubPassTargetSecs', type: 'int', setting: 'subPassTargetSecs', bounds: { gte: 0 } },
  { name: 'ttlMonitorBatchDeletes', type: 'bool', setting: 'batchDeletes' },
];
