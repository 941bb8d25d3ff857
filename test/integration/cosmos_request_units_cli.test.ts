/**
 * The request-unit flags of the command line (the compiled `bin/mayfly.js`, built by
 * `npm test`): `--cosmos-ru-per-second N` and `--cosmos-server-side-retry`, checked strictly,
 * with `--compat cosmos` only, and a server started with them throttling as the flags say.
 */
import { spawnSync } from 'node:child_process';
import { MAYFLY_BIN, startCli } from '../support/processes.js';
import { describe, expect, it } from 'vitest';
import { MongoClient, MongoServerError } from 'mongodb';

const bin = MAYFLY_BIN;

function run(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 10_000 });
}


describe('--cosmos-ru-per-second and --cosmos-server-side-retry', () => {
  it.each([
    [['--compat', 'mongodb', '--cosmos-ru-per-second', '400'], 'mayfly: --cosmos-ru-per-second applies to Cosmos DB mode only: add --compat cosmos'],
    [['--compat', 'mongodb', '--cosmos-server-side-retry'], 'mayfly: --cosmos-server-side-retry applies to Cosmos DB mode only: add --compat cosmos'],
    [
      ['--compat', 'cosmos', '--cosmos-ru-per-second', '0'],
      'mayfly: --cosmos-ru-per-second must be a whole number of request units per second from 1 to 1000000000, not "0"',
    ],
    [
      ['--compat', 'cosmos', '--cosmos-ru-per-second', '2.5'],
      'mayfly: --cosmos-ru-per-second must be a whole number of request units per second from 1 to 1000000000, not "2.5"',
    ],
    [
      ['--compat', 'cosmos', '--cosmos-ru-per-second', 'lots'],
      'mayfly: --cosmos-ru-per-second must be a whole number of request units per second from 1 to 1000000000, not "lots"',
    ],
  ])('%j is a usage error', (args, line) => {
    const result = run(['--port', '0', ...args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('are in the help', () => {
    const help = run(['--help']).stdout;
    expect(help).toContain('--cosmos-ru-per-second <n>');
    expect(help).toContain('--cosmos-server-side-retry');
  });

  it('a server started with them throttles as they say', async () => {
    const { child, uri } = await startCli(['--port', '0', '--compat', 'cosmos', '--clock', 'manual', '--cosmos-ru-per-second', '5', '--quiet']);
    const client = new MongoClient(uri, { maxPoolSize: 1 });
    try {
      const db = client.db('t');
      const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
      expect(opts.parsed.mayfly.cosmos).toEqual({ serverVersion: '7.0', capabilities: [], rulesOff: [], ruPerSecond: 5, serverSideRetry: false });
      await db.collection<{ _id: number }>('c').insertOne({ _id: 1 }); // 5.5 RU of 5: 0.5 RU of debt
      const err = await db
        .collection('c')
        .findOne({})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MongoServerError);
      expect((err as MongoServerError).code).toBe(16500);
      expect((err as MongoServerError).message).toMatch(/^Error=16500, RetryAfterMs=100, Details='Response status code does not indicate success: TooManyRequests \(429\); Substatus: 3200; /);
    } finally {
      await client.close();
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
