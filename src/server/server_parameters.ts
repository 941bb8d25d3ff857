/**
 * The general server parameters (getParameter/setParameter) and the typed helpers that
 * components use to declare their own, with mongod's coercion and error texts.
 */
import { LOGICAL_SESSION_TIMEOUT_MINUTES, sessionCatalogOf } from '../sessions/session_catalog.js';
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { formatValue } from '../storage/values/format.js';
import { isNumber, toDouble } from '../storage/values/numeric.js';
import type { ServerServices } from './services.js';
import { TTL_PARAMETERS } from '../ttl/parameters.js';
import type { ParameterTable } from './parameters.js';
import { registerLogComponentVerbosity } from './log_components.js';
import { snapshotsOf } from '../storage/write/snapshots.js';

/** Bounds of an integer parameter (mongod's IDL validators). */
export interface IntBounds {
  readonly gt?: number;
  readonly gte?: number;
  readonly lte?: number;
}

function invalid(name: string, value: unknown, why?: string): CommandError {
  return new CommandError('BadValue', why ?? `Invalid value for parameter ${name}: ${formatValue(value)}`);
}

/** Declares an integer parameter stored through `get`/`set`; numbers are truncated, bounds checked. */
export function intParameter(
  table: ParameterTable,
  name: string,
  get: () => number,
  set: (n: number) => void,
  bounds: IntBounds = {},
  runtime = true,
): void {
  table.register({
    name,
    get,
    set(value) {
      if (!isNumber(value) && typeof value !== 'string') throw invalid(name, value);
      const n = typeof value === 'string' ? Number(value) : Math.trunc(toDouble(value));
      if (!Number.isFinite(n) || !Number.isSafeInteger(Math.trunc(n))) throw invalid(name, value);
      const v = Math.trunc(n);
      if (bounds.gt !== undefined && !(v > bounds.gt)) throw invalid(name, value, `Invalid value for parameter ${name}: ${v} is not greater than ${bounds.gt}`);
      if (bounds.gte !== undefined && !(v >= bounds.gte)) throw invalid(name, value, `Invalid value for parameter ${name}: ${v} is not greater than or equal to ${bounds.gte}`);
      if (bounds.lte !== undefined && !(v <= bounds.lte)) throw invalid(name, value, `Invalid value for parameter ${name}: ${v} is not less than or equal to ${bounds.lte}`);
      set(v);
    },
    settableAtRuntime: runtime,
    settableAtStartup: true,
  });
}

/** Declares a boolean parameter; any BSON value is taken by truthiness, as mongod does. */
export function boolParameter(table: ParameterTable, name: string, get: () => boolean, set: (b: boolean) => void): void {
  table.register({
    name,
    get,
    set(value) {
      if (typeof value === 'string') {
        if (value === 'true' || value === '1') return set(true);
        if (value === 'false' || value === '0') return set(false);
        throw invalid(name, value);
      }
      set(!(value === false || value === null || value === undefined || (isNumber(value) && toDouble(value) === 0)));
    },
    settableAtRuntime: true,
    settableAtStartup: true,
  });
}

/** Registers the parameters every server has, the TTL engine's among them. */
export function registerServerParameters(server: ServerServices): void {
  const table = server.parameters;
  // mongod 8.2's; setFeatureCompatibilityVersion changes it through `set` (setParameter may not: 20).
  let fcv: Document = { version: '8.2' };
  table.register({
    name: 'featureCompatibilityVersion',
    get: () => fcv,
    set: (value) => (fcv = { version: String(value) }),
    settableAtRuntime: false,
    settableAtStartup: false,
  });
  table.registerConstant('authenticationMechanisms', ['SCRAM-SHA-1', 'SCRAM-SHA-256']);
  table.registerConstant('enableTestCommands', true);
  table.registerConstant('maxBSONDepth', 200);
  // Reported as mongod reports them; nothing here depends on them.
  table.registerConstant('KeysRotationIntervalSec', 7776000);
  table.register({ name: 'authSchemaVersion', get: () => 5, settableAtRuntime: false, settableAtStartup: false });
  // The session catalog's timeout (src/sessions/session_catalog.ts), startup-only in mongod.
  table.registerConstant('localLogicalSessionTimeoutMinutes', LOGICAL_SESSION_TIMEOUT_MINUTES);
  intParameter(
    table,
    'cursorTimeoutMillis',
    () => server.cursors.timeoutMs,
    (n) => (server.cursors.timeoutMs = n),
    { gte: 0 },
  );
  // A transaction running longer is aborted (src/sessions/transaction.ts), on the server's clock.
  intParameter(
    table,
    'transactionLifetimeLimitSeconds',
    () => sessionCatalogOf(server).transactionLifetimeLimitSeconds,
    (n) => (sessionCatalogOf(server).transactionLifetimeLimitSeconds = n),
    { gte: 1 },
  );
  // How long snapshot reads' history is kept (src/storage/write/snapshots.ts), on the server's clock.
  const snapshots = () => snapshotsOf(server.catalog.writes, () => server.logicalClock.now(), () => server.clock.now());
  intParameter(
    table,
    'minSnapshotHistoryWindowInSeconds',
    () => snapshots().windowSecs,
    (n) => (snapshots().windowSecs = n),
    { gte: 0 },
  );
  let logLevel = 0;
  table.register({
    name: 'logLevel',
    get: () => logLevel,
    set(value) {
      if (!isNumber(value) && typeof value !== 'boolean') throw invalid('logLevel', value, `Invalid value for logLevel: logLevel: ${formatValue(value)}`);
      const n = Math.trunc(typeof value === 'boolean' ? Number(value) : toDouble(value));
      if (!(n >= 0 && n <= 2147483647)) throw invalid('logLevel', value, `Invalid value for logLevel: logLevel: ${formatValue(value)}`);
      logLevel = Math.min(n, 5);
      server.logger.level = logLevel > 0 ? 'debug' : server.logger.level === 'debug' ? 'info' : server.logger.level;
    },
    settableAtRuntime: true,
    settableAtStartup: true,
  });
  registerLogComponentVerbosity(table, {
    get: () => logLevel,
    set: (n) => table.lookup('logLevel')!.set!(n),
  });
  // The memory of blocking aggregation stages that may not spill (`allowDiskUse: false`).
  for (const name of ['internalQueryMaxBlockingSortMemoryUsageBytes', 'internalDocumentSourceGroupMaxMemoryBytes']) {
    let bytes = 100 * 1024 * 1024;
    intParameter(table, name, () => bytes, (n) => (bytes = n), { gt: 0 });
  }
  let quiet = false;
  boolParameter(table, 'quiet', () => quiet, (b) => (quiet = b));
  const ttl = server.ttl;
  for (const p of TTL_PARAMETERS) {
    if (p.type === 'bool') boolParameter(table, p.name, () => ttl.settings[p.setting], (b) => ttl.setSetting(p.setting, b));
    else intParameter(table, p.name, () => ttl.settings[p.setting], (n) => ttl.setSetting(p.setting, n), p.bounds);
  }
}
