/**
 * `mayfly/mocha`: Mocha global fixtures that start Mayfly before the tests (and before the
 * workers of `--parallel`), hand the URI to the tests in `process.env.MONGODB_URI`, and stop it
 * when the run ends.
 *
 *   mocha --require mayfly/mocha            (or `require: ['mayfly/mocha']` in .mocharc)
 *
 * With options, from a file of your own that `--require` loads instead:
 *
 *   // test/mayfly.fixtures.mjs
 *   import { mayflyFixtures } from 'mayfly/mocha';
 *   export const { mochaGlobalSetup, mochaGlobalTeardown } = mayflyFixtures({ clock: 'manual' });
 */
import { MayflyOptionError } from '../options.js';
import { startTestServers, type MayflyTestOptions, type TestServers } from './servers.js';

export type { MayflyTestOptions } from './servers.js';

/** Mocha's two global fixtures, starting and stopping Mayfly with `options`. */
export function mayflyFixtures(options: Omit<MayflyTestOptions, 'perWorker'> = {}): {
  mochaGlobalSetup: () => Promise<void>;
  mochaGlobalTeardown: () => Promise<void>;
} {
  if ((options as MayflyTestOptions).perWorker !== undefined) {
    throw new MayflyOptionError("mayfly/mocha: perWorker is for Vitest and Jest; under mocha --parallel, give each worker a database of its own (process.env.MOCHA_WORKER_ID)");
  }
  let started: TestServers | undefined;
  return {
    async mochaGlobalSetup() {
      started = await startTestServers(options, 1, 'mayfly/mocha');
    },
    async mochaGlobalTeardown() {
      await started?.stop();
      started = undefined;
    },
  };
}

/** `--require mayfly/mocha`: one server with the default options. */
export const { mochaGlobalSetup, mochaGlobalTeardown } = mayflyFixtures();
