/**
 * The unified-format transactions tests (`../shared/spec-tests/transactions`) against Mayfly's
 * one-node replica set. Not-applicable tests are listed in `not_applicable_transactions.md`;
 * tests Mayfly does not pass yet are in `known_failures.ts` and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'transactions', listFile: 'not_applicable_transactions.md', replSet: 'rs0' });
