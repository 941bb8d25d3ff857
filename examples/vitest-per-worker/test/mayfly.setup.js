import { mayflyGlobalSetup } from 'mayfly/vitest';

export default mayflyGlobalSetup({ perWorker: true, clock: 'manual', compat: 'mongodb' });
