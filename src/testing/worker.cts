/**
 * `mayfly/worker`: the setup file of `perWorker: true` (Vitest `setupFiles`, Jest `setupFiles`).
 * It runs in each worker before its test files and sets `process.env.MONGODB_URI` (or the
 * `uriEnvName` of the global setup) to the URI of the server started for that worker, chosen by
 * the worker's number: Vitest's `VITEST_POOL_ID`, Jest's `JEST_WORKER_ID` (both count from 1).
 *
 * CommonJS without imports, so that Jest's module registry loads it as it is.
 */
const WORKER_URIS_ENV = 'MAYFLY_WORKER_URIS'; // as src/testing/servers.ts
const URI_ENV_NAME_ENV = 'MAYFLY_URI_ENV_NAME';

function workerUri(): { name: string; uri: string } {
  const list = process.env[WORKER_URIS_ENV];
  if (list === undefined) {
    throw new Error(
      "mayfly/worker: no servers were started for the workers; use it together with Mayfly's global setup with perWorker: true (see Mayfly's README, Use it from a test runner)",
    );
  }
  const uris = JSON.parse(list) as string[];
  const id = process.env.VITEST_POOL_ID ?? process.env.JEST_WORKER_ID;
  const n = id === undefined ? NaN : Number(id);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error('mayfly/worker: not in a Vitest or Jest worker (neither VITEST_POOL_ID nor JEST_WORKER_ID is set)');
  }
  if (n > uris.length) {
    throw new Error(`mayfly/worker: this is worker ${n}, but the global setup started ${uris.length} servers; give the runner the same maxWorkers as the global setup saw`);
  }
  return { name: process.env[URI_ENV_NAME_ENV] ?? 'MONGODB_URI', uri: uris[n - 1]! };
}

const { name, uri } = workerUri();
process.env[name] = uri;
