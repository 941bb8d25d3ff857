/**
 * The TTL monitor's server parameters, as mongod 8.2 declares them in `src/mongo/db/ttl/ttl.idl`
 * (names, defaults and validators), registered in the server's `ParameterTable` so that
 * `getParameter`, `setParameter` and the command line (`--ttl-monitor-sleep-secs`, ...) see them.
 */
import type { ParameterTable } from '../server/parameters.js';
import { boolParameter, intParameter } from '../server/server_parameters.js';

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

/**
 * Registers the TTL parameters over `settings`; `onSleepSecsChange` runs after
 * `ttlMonitorSleepSecs` changes (the monitor re-arms its timer at once).
 */
export function registerTtlParameters(table: ParameterTable, settings: TtlSettings, onSleepSecsChange: () => void): void {
  boolParameter(table, 'ttlMonitorEnabled', () => settings.enabled, (b) => (settings.enabled = b));
  intParameter(
    table,
    'ttlMonitorSleepSecs',
    () => settings.sleepSecs,
    (n) => {
      settings.sleepSecs = n;
      onSleepSecsChange();
    },
    { gt: 0 },
  );
  intParameter(table, 'ttlIndexDeleteTargetDocs', () => settings.deleteTargetDocs, (n) => (settings.deleteTargetDocs = n), { gte: 0 });
  intParameter(table, 'ttlIndexDeleteTargetTimeMS', () => settings.deleteTargetTimeMs, (n) => (settings.deleteTargetTimeMs = n), { gte: 0 });
  intParameter(table, 'ttlMonitorSubPassTargetSecs', () => settings.subPassTargetSecs, (n) => (settings.subPassTargetSecs = n), { gte: 0 });
  boolParameter(table, 'ttlMonitorBatchDeletes', () => settings.batchDeletes, (b) => (settings.batchDeletes = b));
}
