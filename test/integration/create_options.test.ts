/**
 * `MayflyServer.create()` with a bad option: it rejects with a `MayflyOptionError` whose one-line
 * message names the option and says what to give instead, and starts nothing. A port already in
 * use is answered the same way, with the Node code kept on the error.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MayflyOptionError, MayflyServer } from '../../src/index.js';

const PARAMETERS =
  'cursorTimeoutMillis, internalDocumentSourceGroupMaxMemoryBytes, internalQueryMaxBlockingSortMemoryUsageBytes, logComponentVerbosity, logLevel, minSnapshotHistoryWindowInSeconds, quiet, transactionLifetimeLimitSeconds, ttlIndexDeleteTargetDocs, ttlIndexDeleteTargetTimeMS, ttlMonitorBatchDeletes, ttlMonitorEnabled, ttlMonitorSleepSecs, ttlMonitorSubPassTargetSecs';

/** What `create(options)` rejects with. */
async function refusal(options: unknown): Promise<{ name: string; message: string; isOptionError: boolean; code?: string }> {
  try {
    const server = await MayflyServer.create(options as never);
    await server.stop();
  } catch (err) {
    const e = err as Error & { code?: string };
    return { name: e.name, message: e.message, isOptionError: e instanceof MayflyOptionError, ...(e.code === undefined ? {} : { code: e.code }) };
  }
  throw new Error(`create(${JSON.stringify(options)}) started a server`);
}

let running: MayflyServer | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('MayflyServer.create() with a bad option', () => {
  test.each([
    [{ prot: 27017 }, "unknown option 'prot'; the options are port, host, compat, cosmos, clock, logLevel, parameters, tls, replSet, auth"],
    [{ auth: true }, "option 'auth' must be an object such as { username: 'root', password: 'example' }, not true"],
    [{ auth: { username: 'root' } }, "option 'auth' needs both username and password (or neither, with enabled: true), such as { username: 'root', password: 'example' }"],
    [{ auth: { user: 'root', pwd: 'x' } }, "option 'auth' has an unknown field 'user'; its fields are username, password, enabled"],
    [{ auth: { username: '', password: 'x' } }, "option 'auth.username' must be a non-empty string, not \"\""],
    [{ auth: { enable: true, customRootName: 'root' } }, "option 'auth.enable' is mongodb-memory-server's spelling: give { username, password } (a root user, access control on) or { enabled: true }"],
    [{ auth: { enabled: 'yes' } }, "option 'auth.enabled' must be true or false, not \"yes\""],
    [{ instance: { port: 27017 } }, "'instance' is a mongodb-memory-server option: give port and host at the top level ({ port, host })"],
    [{ binary: { version: '8.0.0' } }, "'binary' is a mongodb-memory-server option: Mayfly downloads no binary, so it has no equivalent"],
    [{ port: '27017' }, "option 'port' must be an integer from 0 to 65535 (0 picks any free port), not \"27017\""],
    [{ port: 70000 }, "option 'port' must be an integer from 0 to 65535 (0 picks any free port), not 70000"],
    [{ port: 1.5 }, "option 'port' must be an integer from 0 to 65535 (0 picks any free port), not 1.5"],
    [{ host: '' }, "option 'host' must be a non-empty string such as '127.0.0.1', not \"\""],
    [{ compat: 'oracle' }, "option 'compat' must be one of 'cosmos', 'mongodb', not \"oracle\""],
    [{ clock: 'fast' }, "option 'clock' must be one of 'system', 'manual', not \"fast\""],
    [{ logLevel: 'loud' }, "option 'logLevel' must be one of 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', not \"loud\""],
    [{ parameters: 'ttlMonitorSleepSecs=1' }, "option 'parameters' must be an object of server parameters such as { ttlMonitorSleepSecs: 1 }, not \"ttlMonitorSleepSecs=1\""],
    [{ parameters: { ttlMonitorSleepSec: 1 } }, `option 'parameters': unknown server parameter 'ttlMonitorSleepSec'; the parameters settable at startup are ${PARAMETERS}`],
    [{ parameters: { ttlMonitorSleepSecs: 0 } }, "option 'parameters': Invalid value for parameter ttlMonitorSleepSecs: 0 is not greater than 0"],
    [null, "the options must be an object such as { port: 0, compat: 'mongodb' }, not null"],
    ['cosmos', "the options must be an object such as { port: 0, compat: 'mongodb' }, not \"cosmos\""],
  ])('%j', async (options, message) => {
    expect(await refusal(options)).toEqual({ name: 'MayflyOptionError', message: `MayflyServer.create(): ${message}`, isOptionError: true });
  });

  test('a port already in use', async () => {
    running = await MayflyServer.create();
    const port = running.port;
    expect(await refusal({ port })).toEqual({
      name: 'MayflyOptionError',
      message: `MayflyServer.create(): port ${port} on 127.0.0.1 is already in use (by another mongod or Mayfly?); stop that server, or choose another port with the option 'port' (0 picks any free port)`,
      isOptionError: true,
      code: 'EADDRINUSE',
    });
  });

  test('undefined options are defaults, as when they are left out', async () => {
    running = await MayflyServer.create({ port: undefined, compat: undefined, clock: undefined });
    expect(running.getUri()).toBe(`mongodb://127.0.0.1:${running.port}/`);
    expect(running.clock.mode).toBe('system');
  });
});
