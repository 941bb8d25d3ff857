/**
 * The MongoDB specifications' unified-format CRUD tests (`../shared/spec-tests/crud`, see its
 * SOURCE.md), run by our own runner (`unified_runner.ts`) through the official driver against an
 * in-process Mayfly. Not-applicable tests are listed in `not_applicable_crud.md`; tests Mayfly
 * does not pass yet are in `known_failures.ts` and must keep failing.
 */
import { defineSpecSuite } from './suite.js';

await defineSpecSuite({ dir: 'crud', listFile: 'not_applicable_crud.md' });
