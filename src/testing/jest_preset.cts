/**
 * `preset: 'mayfly'` (Jest looks for `mayfly/jest-preset`): the global setup and teardown of
 * `mayfly/jest` with the default options, one server for the run, its URI in
 * `process.env.MONGODB_URI`.
 */
import path from 'node:path';

export = {
  globalSetup: path.join(__dirname, 'jest_global_setup.cjs'),
  globalTeardown: path.join(__dirname, 'jest_global_teardown.cjs'),
  testEnvironment: 'node',
};
