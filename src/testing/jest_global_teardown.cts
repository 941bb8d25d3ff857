/** `mayfly/jest/global-teardown`: Jest's `globalTeardown`, stopping what the global setup started. */
import { mayflyGlobalTeardown } from './jest.cjs';

export = mayflyGlobalTeardown();
