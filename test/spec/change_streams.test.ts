/**
 * The unified-format change-streams tests (`../shared/spec-tests/change-streams`) against Mayfly's
 * one-node replica set. Not-applicable tests are listed in `not_applicable_change_streams.md`;
 * tests Mayfly does not pass yet are in `known_failures.ts` and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'change-streams', listFile: 'not_applicable_change_streams.md', replSet: 'rs0' });
