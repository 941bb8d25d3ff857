/**
 * The unified test format's own "valid-pass" tests (`../shared/spec-tests/runner-validation`):
 * they pass against a real mongod, so they check our runner as much as the server. Not-applicable
 * tests are listed in `not_applicable_runner_validation.md`; known failures in `known_failures.ts`.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'runner-validation/valid-pass', listFile: 'not_applicable_runner_validation.md' });
