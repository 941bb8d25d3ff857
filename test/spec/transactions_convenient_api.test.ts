/**
 * The unified-format convenient-API transactions tests (`withTransaction`:
 * `../shared/spec-tests/transactions-convenient-api`) against Mayfly's one-node replica set.
 * Not-applicable tests are listed in `not_applicable_transactions_convenient_api.md`; tests
 * Mayfly does not pass yet are in `known_failures.ts` and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'transactions-convenient-api', listFile: 'not_applicable_transactions_convenient_api.md', replSet: 'rs0' });
