/**
 * `mayfly/vitest`: a Vitest `globalSetup` that starts Mayfly before the workers, hands the URI to
 * the tests in `process.env.MONGODB_URI`, and stops the server when the run ends.
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ['mayfly/vitest'] } });
 *
 * With options, from a global-setup file of your own:
 *
 *   // test/mayfly.setup.ts
 *   import { mayflyGlobalSetup } from 'mayfly/vitest';
 *   export default mayflyGlobalSetup({ compat: 'mongodb', clock: 'manual', perWorker: true });
 *
 * `perWorker: true` starts one server per Vitest worker (`maxWorkers` of them); add
 * `setupFiles: ['mayfly/worker']` so that each worker's tests see their own server's URI.
 */
import { startTestServers, type MayflyTestOptions, type TestServers } from './servers.js';

export type { MayflyTestOptions } from './servers.js';

/** What Vitest hands a global setup (its `TestProject`), as far as Mayfly reads it. */
export interface VitestProjectLike {
  config?: { maxWorkers?: number };
  globalConfig?: { maxWorkers?: number };
}

/** A Vitest global-setup function: starts the servers, returns the teardown that stops them. */
export type VitestGlobalSetup = (project?: VitestProjectLike) => Promise<() => Promise<void>>;

/** A Vitest global setup starting Mayfly with `options`; export it as the default of a setup file. */
export function mayflyGlobalSetup(options: MayflyTestOptions = {}): VitestGlobalSetup {
  return async (project) => {
    const workers = project?.config?.maxWorkers ?? project?.globalConfig?.maxWorkers ?? 1;
    const started: TestServers = await startTestServers(options, workers, 'mayfly/vitest');
    return () => started.stop();
  };
}

/** `globalSetup: ['mayfly/vitest']`: one server with the default options. */
export default mayflyGlobalSetup();
