/**
 * What every test-runner helper does (mayfly/vitest, mayfly/jest, mayfly/mocha): start Mayfly
 * servers in the runner's main process before the workers start, hand their URIs to the tests
 * through environment variables (which the workers inherit), and stop them at the end.
 *
 * - One server for the run (the default): `process.env.MONGODB_URI` (or `uriEnvName`) is its URI.
 * - `perWorker: true`: one server per worker of the runner. Their URIs are in
 *   `MAYFLY_WORKER_URIS` (a JSON array); the setup file `mayfly/worker` (src/testing/worker.cts),
 *   run in each worker, sets `MONGODB_URI` to the one of that worker.
 */
import { MayflyServer } from '../index.js';
import type { CosmosOptions } from '../cosmos/settings.js';
import { checkServerOptions, MayflyOptionError, type ClockMode, type CompatMode, type LogLevel, type MayflyServerOptions } from '../options.js';

/** Options of the test-runner helpers. */
export interface MayflyTestOptions {
  /** Compatibility mode of the servers: 'mongodb' (default, as `MayflyServer.create()`) or 'cosmos'. */
  compat?: CompatMode;
  /** With compat 'cosmos': the Cosmos DB server version, capabilities and rules (as `MayflyServer.create()`). */
  cosmos?: CosmosOptions;
  /** 'manual' starts each server on the test clock (moved with `mayflyAdvanceClock`); default 'system'. */
  clock?: ClockMode;
  /** Startup values of server parameters, e.g. `{ ttlMonitorSleepSecs: 1 }`. */
  parameters?: Record<string, unknown>;
  /** The servers' log level; default 'silent'. */
  logLevel?: LogLevel;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /** One server per worker instead of one for the run (needs the setup file `mayfly/worker`). */
  perWorker?: boolean;
  /** The environment variable that holds the URI in the tests; default 'MONGODB_URI'. */
  uriEnvName?: string;
}

/** The names `MayflyTestOptions` has, in the order messages list them. */
const TEST_OPTION_NAMES = ['compat', 'cosmos', 'clock', 'parameters', 'logLevel', 'host', 'perWorker', 'uriEnvName'] as const;

/** The variables the helpers set for the workers (read by src/testing/worker.cts). */
export const WORKER_URIS_ENV = 'MAYFLY_WORKER_URIS';
export const URI_ENV_NAME_ENV = 'MAYFLY_URI_ENV_NAME';

/** Servers started for a test run. */
export interface TestServers {
  /** Their URIs, in worker order (one when not per worker). */
  readonly uris: readonly string[];
  /** The servers themselves (in this process, the runner's main one). */
  readonly servers: readonly MayflyServer[];
  /** Stops every server and gives the environment variables back their earlier values. */
  stop(): Promise<void>;
}

/** The helpers' options, checked: what each server is created with, and how the run uses them. */
interface CheckedTestOptions {
  readonly server: MayflyServerOptions;
  readonly perWorker: boolean;
  readonly uriEnvName: string;
}

/** Checks the helpers' options (`who` names the helper in messages). */
function checkTestOptions(options: unknown, who: string): CheckedTestOptions {
  if (options === undefined) return { server: {}, perWorker: false, uriEnvName: 'MONGODB_URI' };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new MayflyOptionError(`${who}: the options must be an object such as { compat: 'mongodb', clock: 'manual' }`);
  }
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(TEST_OPTION_NAMES as readonly string[]).includes(name)) {
      throw new MayflyOptionError(`${who}: unknown option '${name}'; the options are ${TEST_OPTION_NAMES.join(', ')}`);
    }
  }
  if (given.perWorker !== undefined && typeof given.perWorker !== 'boolean') {
    throw new MayflyOptionError(`${who}: option 'perWorker' must be true or false`);
  }
  if (given.uriEnvName !== undefined && (typeof given.uriEnvName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(given.uriEnvName))) {
    throw new MayflyOptionError(`${who}: option 'uriEnvName' must be the name of an environment variable, such as 'MONGODB_URI'`);
  }
  const { compat, cosmos, clock, parameters, logLevel, host } = given;
  return {
    server: checkServerOptions(strip({ compat, cosmos, clock, parameters, logLevel, host }), who),
    perWorker: given.perWorker === true,
    uriEnvName: (given.uriEnvName as string | undefined) ?? 'MONGODB_URI',
  };
}

function strip(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Starts the servers of a run: one, or `workers` when `options.perWorker`, and sets the
 * environment variables the tests read.
 */
export async function startTestServers(options: MayflyTestOptions, workers: number, who: string): Promise<TestServers> {
  const checked = checkTestOptions(options, who);
  const count = checked.perWorker ? Math.max(1, Math.floor(workers)) : 1;
  const uriEnvName = checked.uriEnvName;
  const servers: MayflyServer[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await MayflyServer.create(checked.server));
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  const uris = servers.map((s) => s.getUri());
  const names = checked.perWorker ? [WORKER_URIS_ENV, URI_ENV_NAME_ENV] : [uriEnvName];
  const earlier = new Map(names.map((name) => [name, process.env[name]]));
  if (checked.perWorker) {
    process.env[WORKER_URIS_ENV] = JSON.stringify(uris);
    process.env[URI_ENV_NAME_ENV] = uriEnvName;
  } else {
    process.env[uriEnvName] = uris[0];
  }
  let stopped = false;
  return {
    uris,
    servers,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all(servers.map((s) => s.stop()));
      for (const [name, value] of earlier) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
