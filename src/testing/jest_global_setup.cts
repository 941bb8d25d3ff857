/** `mayfly/jest/global-setup`: Jest's `globalSetup`, one Mayfly server with the default options. */
import { mayflyGlobalSetup } from './jest.cjs';

export = mayflyGlobalSetup();
