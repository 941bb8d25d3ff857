/**
 * The test-runner helpers in-process, beyond what the example projects show: the environment
 * they set and give back, one server per worker, their options and their errors, and the setup
 * file `mayfly/worker` in each situation a worker can be in.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MongoClient } from 'mongodb';
import { mayflyGlobalSetup } from '../../src/testing/vitest.js';
import { mayflyFixtures } from '../../src/testing/mocha.js';
import { listening, repoRoot } from './example_project.js';

const require = createRequire(import.meta.url);
const NAMES = ['MONGODB_URI', 'MONGO_URL', 'MAYFLY_WORKER_URIS', 'MAYFLY_URI_ENV_NAME'];
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  for (const n of NAMES) delete process.env[n];
});
afterEach(() => {
  for (const [n, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  }
});

/** What `mayflyClock` says of the server at `uri`. */
async function clockOf(uri: string): Promise<string> {
  const client = await MongoClient.connect(uri);
  try {
    return (await client.db('admin').command({ mayflyClock: 1 })).clock as string;
  } finally {
    await client.close();
  }
}

describe('mayfly/vitest', () => {
  test('one server: MONGODB_URI while the run lasts, the earlier value back after the teardown', async () => {
    process.env.MONGODB_URI = 'mongodb://elsewhere:27017/';
    const teardown = await mayflyGlobalSetup()({ config: { maxWorkers: 4 } });
    const uri = process.env.MONGODB_URI!;
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    expect(process.env.MAYFLY_WORKER_URIS).toBeUndefined();
    expect(await clockOf(uri)).toBe('system');
    await teardown();
    expect(process.env.MONGODB_URI).toBe('mongodb://elsewhere:27017/');
    expect(await listening(uri)).toBe(false);
  });

  test('perWorker: one server per worker (maxWorkers), in MAYFLY_WORKER_URIS; uriEnvName names the variable', async () => {
    const teardown = await mayflyGlobalSetup({ perWorker: true, clock: 'manual', uriEnvName: 'MONGO_URL' })({ config: { maxWorkers: 3 } });
    const uris = JSON.parse(process.env.MAYFLY_WORKER_URIS!) as string[];
    expect(uris).toHaveLength(3);
    expect(new Set(uris).size).toBe(3);
    expect(process.env.MAYFLY_URI_ENV_NAME).toBe('MONGO_URL');
    expect(process.env.MONGO_URL).toBeUndefined();
    expect(await Promise.all(uris.map(clockOf))).toEqual(['manual', 'manual', 'manual']);
    await teardown();
    expect([process.env.MAYFLY_WORKER_URIS, process.env.MAYFLY_URI_ENV_NAME]).toEqual([undefined, undefined]);
    expect(await Promise.all(uris.map(listening))).toEqual([false, false, false]);
  });

  test('a bad option is refused with one line naming it', async () => {
    await expect(mayflyGlobalSetup({ prot: 1 } as never)()).rejects.toThrow(
      "mayfly/vitest: unknown option 'prot'; the options are compat, cosmos, clock, parameters, logLevel, host, perWorker, uriEnvName",
    );
    await expect(mayflyGlobalSetup({ compat: 'oracle' } as never)()).rejects.toThrow("mayfly/vitest: option 'compat' must be one of 'cosmos', 'mongodb', not \"oracle\"");
    await expect(mayflyGlobalSetup({ perWorker: 'yes' } as never)()).rejects.toThrow("mayfly/vitest: option 'perWorker' must be true or false");
    await expect(mayflyGlobalSetup({ uriEnvName: 'MONGO-URL' })()).rejects.toThrow(
      "mayfly/vitest: option 'uriEnvName' must be the name of an environment variable, such as 'MONGODB_URI'",
    );
    expect(process.env.MONGODB_URI).toBeUndefined();
  });
});

describe('mayfly/jest (the built CommonJS files)', () => {
  const jest = require(path.join(repoRoot, 'dist/testing/jest.cjs')) as typeof import('../../src/testing/jest.cjs');
  const preset = require(path.join(repoRoot, 'dist/testing/jest_preset.cjs')) as Record<string, string>;

  test('the global setup and teardown pair, with options and per worker', async () => {
    await jest.mayflyGlobalSetup({ perWorker: true, compat: 'mongodb' })({ maxWorkers: 2 });
    const uris = JSON.parse(process.env.MAYFLY_WORKER_URIS!) as string[];
    expect(uris).toHaveLength(2);
    expect(await Promise.all(uris.map(clockOf))).toEqual(['system', 'system']);
    await jest.mayflyGlobalTeardown()();
    expect(process.env.MAYFLY_WORKER_URIS).toBeUndefined();
    expect(await Promise.all(uris.map(listening))).toEqual([false, false]);
  });

  test("the preset names the default setup and teardown, which start and stop one server", async () => {
    expect(preset).toEqual({
      globalSetup: path.join(repoRoot, 'dist/testing/jest_global_setup.cjs'),
      globalTeardown: path.join(repoRoot, 'dist/testing/jest_global_teardown.cjs'),
      testEnvironment: 'node',
    });
    const setup = require(preset.globalSetup!) as (config: { maxWorkers: number }) => Promise<void>;
    const teardown = require(preset.globalTeardown!) as () => Promise<void>;
    await setup({ maxWorkers: 2 });
    const uri = process.env.MONGODB_URI!;
    expect(await clockOf(uri)).toBe('system');
    await teardown();
    expect(process.env.MONGODB_URI).toBeUndefined();
    expect(await listening(uri)).toBe(false);
  });
});

describe('mayfly/mocha', () => {
  test('the fixtures start and stop one server; perWorker is refused', async () => {
    const { mochaGlobalSetup, mochaGlobalTeardown } = mayflyFixtures({ clock: 'manual' });
    await mochaGlobalSetup();
    const uri = process.env.MONGODB_URI!;
    expect(await clockOf(uri)).toBe('manual');
    await mochaGlobalTeardown();
    expect(process.env.MONGODB_URI).toBeUndefined();
    expect(await listening(uri)).toBe(false);
    expect(() => mayflyFixtures({ perWorker: true } as never)).toThrow(
      'mayfly/mocha: perWorker is for Vitest and Jest; under mocha --parallel, give each worker a database of its own (process.env.MOCHA_WORKER_ID)',
    );
  });
});

describe('mayfly/worker', () => {
  /** Loads the setup file in a fresh process with `env`; what MONGODB_URI / MONGO_URL became, or the error. */
  function worker(env: Record<string, string>): { status: number | null; out: string; err: string } {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|JEST_|MAYFLY_|MONGODB_URI$|MONGO_URL$)/.test(k)));
    const script = `try { require(${JSON.stringify(path.join(repoRoot, 'dist/testing/worker.cjs'))}); console.log(process.env.MONGODB_URI + ' ' + process.env.MONGO_URL) } catch (e) { console.error(e.message); process.exit(3) }`;
    const r = spawnSync(process.execPath, ['-e', script], { env: { ...clean, ...env }, encoding: 'utf8' });
    return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
  }
  const uris = JSON.stringify(['mongodb://127.0.0.1:1001/', 'mongodb://127.0.0.1:1002/']);

  test("sets the worker's URI from VITEST_POOL_ID or JEST_WORKER_ID", () => {
    expect(worker({ MAYFLY_WORKER_URIS: uris, MAYFLY_URI_ENV_NAME: 'MONGODB_URI', VITEST_POOL_ID: '2' })).toEqual({ status: 0, out: 'mongodb://127.0.0.1:1002/ undefined', err: '' });
    expect(worker({ MAYFLY_WORKER_URIS: uris, MAYFLY_URI_ENV_NAME: 'MONGO_URL', JEST_WORKER_ID: '1' })).toEqual({ status: 0, out: 'undefined mongodb://127.0.0.1:1001/', err: '' });
  });

  test('says what is wrong when it cannot', () => {
    expect(worker({ VITEST_POOL_ID: '1' })).toEqual({
      status: 3,
      out: '',
      err: "mayfly/worker: no servers were started for the workers; use it together with Mayfly's global setup with perWorker: true (see Mayfly's README, Use it from a test runner)",
    });
    expect(worker({ MAYFLY_WORKER_URIS: uris })).toEqual({ status: 3, out: '', err: 'mayfly/worker: not in a Vitest or Jest worker (neither VITEST_POOL_ID nor JEST_WORKER_ID is set)' });
    expect(worker({ MAYFLY_WORKER_URIS: uris, JEST_WORKER_ID: '3' })).toEqual({
      status: 3,
      out: '',
      err: 'mayfly/worker: this is worker 3, but the global setup started 2 servers; give the runner the same maxWorkers as the global setup saw',
    });
  });
});
