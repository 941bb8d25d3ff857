/**
 * `mayfly/jest`: a Jest global setup and teardown pair that start Mayfly before the workers,
 * hand the URI to the tests in `process.env.MONGODB_URI`, and stop it when the run ends.
 *
 *   // jest.config.js: the preset, with the default options
 *   module.exports = { preset: 'mayfly' };
 *
 *   // or a setup of your own, with options
 *   // jest.config.js: { globalSetup: './test/mayfly-setup.cjs', globalTeardown: 'mayfly/jest/global-teardown' }
 *   // test/mayfly-setup.cjs
 *   module.exports = require('mayfly/jest').mayflyGlobalSetup({ clock: 'manual', perWorker: true });
 *
 * `perWorker: true` starts one server per Jest worker (`maxWorkers` of them); add
 * `setupFiles: ['mayfly/worker']` so that each worker's tests see their own server's URI.
 *
 * CommonJS, as Jest loads its global setup; Mayfly itself (ESM) is imported when the setup runs.
 */
import type { MayflyTestOptions, TestServers } from './servers.js';

export type { MayflyTestOptions } from './servers.js';

/** Where the setup leaves the servers for the teardown (Jest runs both in its main process). */
const STATE = Symbol.for('mayfly.jest.servers');
type State = { [STATE]?: TestServers };

/** What Jest hands a global setup, as far as Mayfly reads it. */
export interface JestGlobalConfigLike {
  maxWorkers?: number;
}

/** A Jest global setup starting Mayfly with `options`: `module.exports = mayflyGlobalSetup({...})`. */
export function mayflyGlobalSetup(options: MayflyTestOptions = {}): (globalConfig?: JestGlobalConfigLike) => Promise<void> {
  return async (globalConfig) => {
    const { startTestServers } = await import('./servers.js');
    const state = globalThis as State;
    await state[STATE]?.stop();
    state[STATE] = await startTestServers(options, globalConfig?.maxWorkers ?? 1, 'mayfly/jest');
  };
}

/** The Jest global teardown that stops what `mayflyGlobalSetup` started. */
export function mayflyGlobalTeardown(): () => Promise<void> {
  return async () => {
    const state = globalThis as State;
    const started = state[STATE];
    delete state[STATE];
    await started?.stop();
  };
}
