/**
 * The unified-format retryable-writes tests (`../shared/spec-tests/retryable-writes`) against
 * Mayfly's one-node replica set. Not-applicable tests are listed in
 * `not_applicable_retryable_writes.md`; tests Mayfly does not pass yet are in `known_failures.ts`
 * and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'retryable-writes', listFile: 'not_applicable_retryable_writes.md', replSet: 'rs0' });
