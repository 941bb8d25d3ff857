/**
 * The unified-format sessions tests (`../shared/spec-tests/sessions`) against Mayfly's one-node
 * replica set. Not-applicable tests are listed in `not_applicable_sessions.md`; tests Mayfly does
 * not pass yet are in `known_failures.ts` and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'sessions', listFile: 'not_applicable_sessions.md', replSet: 'rs0' });
