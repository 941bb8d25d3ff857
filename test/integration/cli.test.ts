/**
 * The command line as a user runs it (the compiled `bin/mayfly.js`, built by `npm test`):
 * flags, the one URI line, a working server, clean shutdown on SIGTERM/SIGINT, and a user's
 * mistakes (bad flags and values, a port in use) answered with one line and exit code 2.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { MAYFLY_BIN, startCli } from '../support/processes.js';
import { describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { TestClient } from './harness.js';
import { MAYFLY_VERSION } from '../../src/version.js';

const bin = MAYFLY_BIN;


function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('mayfly CLI', () => {
  it('starts on a free port, logs one JSON line with its URI, serves, and stops on SIGTERM', async () => {
    const { child, uri, lines } = await startCli(['--port', '0', '--compat', 'mongodb']);
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    const listening = JSON.parse(lines.find((l) => l.includes(uri))!);
    expect(listening.msg).toBe(`Waiting for connections on ${uri}`);
    expect(listening.compat).toBe('mongodb');
    const client: TestClient = new MongoClient(uri);
    await client.connect();
    await client.db('cli').collection('c').insertOne({ _id: 1 });
    expect(await client.db('cli').collection('c').findOne({})).toEqual({ _id: 1 });
    const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
    expect(opts.argv).toEqual(['mayfly', '--port', '0', '--compat', 'mongodb']);
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('--compat cosmos with a server version, capabilities and a rule off', async () => {
    const { child, uri } = await startCli(['--port', '0', '--compat', 'cosmos', '--cosmos-server-version', '6.0', '--cosmos-capabilities', 'EnableTtlOnCustomPath', '--cosmos-rule-off', 'sortNeedsIndex']);
    const client: TestClient = new MongoClient(uri);
    await client.connect();
    expect((await client.db('admin').command({ buildInfo: 1 })).version).toBe('6.0.0');
    const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
    expect(opts.parsed.mayfly).toEqual({ compat: 'cosmos', clock: 'system', cosmos: { serverVersion: '6.0', capabilities: ['EnableTtlOnCustomPath'], rulesOff: ['sortNeedsIndex'], ruPerSecond: 'unlimited', serverSideRetry: false } });
    // sortNeedsIndex is off; EnableTtlOnCustomPath allows a TTL index on another field.
    await client.db('cli').collection('c').insertMany([{ _id: 2, a: 1 }, { _id: 1, a: 2 }]);
    expect((await client.db('cli').collection('c').find().sort({ a: 1 }).toArray()).map((d) => d._id)).toEqual([2, 1]);
    expect(await client.db('cli').collection('t').createIndex({ at: 1 }, { expireAfterSeconds: 5 })).toBe('at_1');
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('--replSet presents the primary of a one-node set that drivers discover with ?replicaSet=', async () => {
    const { child, uri } = await startCli(['--port', '0', '--replSet', 'rs0', '--quiet']);
    const client: TestClient = new MongoClient(`${uri}?replicaSet=rs0`, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
    await client.db('cli').collection('c').insertOne({ _id: 1 });
    const hello = await client.db('admin').command({ hello: 1 });
    expect([hello.setName, hello.isWritablePrimary, hello.secondary]).toEqual(['rs0', true, false]);
    const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
    expect(opts.parsed.replication).toEqual({ replSet: 'rs0' });
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('keeps serving when its stdout is closed (mayfly | head -1), and still stops cleanly', async () => {
    const { child, uri } = await startCli(['--port', '0']);
    child.stdout!.destroy(); // the reading end goes away, as when `head` exits
    const client = new MongoClient(uri);
    await client.connect(); // logs 'connection accepted' into the closed pipe
    expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('stops on SIGINT with exit code 0', async () => {
    const { child } = await startCli(['--port', '0']);
    const exited = exitCode(child);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('--quiet logs only the listening line', async () => {
    const { child, uri, lines } = await startCli(['--port', '0', '--quiet']);
    const client = new MongoClient(uri);
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    await exited;
    expect(lines.filter((l) => l.includes('connection accepted'))).toEqual([]);
  });

  /** Runs the CLI to its end; a user mistake must exit before it listens. */
  function run(args: string[]) {
    return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 10_000 });
  }

  const help = " Run 'mayfly --help' to see every option.";

  it('answers a bad flag value with one line on stderr and exit code 2', () => {
    const cases: Array<[string[], string]> = [
      [['--compat', 'oracle'], `mayfly: option '--compat <mode>' argument 'oracle' is invalid. Allowed choices are cosmos, mongodb.${help}`],
      [['--port', '70000'], `mayfly: option '--port <port>' argument '70000' is invalid. The port must be an integer from 0 to 65535 (0 picks any free port).${help}`],
      [['--port', 'abc'], `mayfly: option '--port <port>' argument 'abc' is invalid. The port must be an integer from 0 to 65535 (0 picks any free port).${help}`],
      [['--clock', 'fast'], `mayfly: option '--clock <mode>' argument 'fast' is invalid. Allowed choices are system, manual.${help}`],
      [['--log-level', 'loud'], `mayfly: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are fatal, error, warn, info, debug, trace, silent.${help}`],
      [['--set-parameter', 'bad'], `mayfly: option '--set-parameter <name=value>' argument 'bad' is invalid. Write it as name=value, e.g. --set-parameter ttlMonitorSubPassTargetSecs=10.${help}`],
      [['--port'], `mayfly: option '--port <port>' argument missing.${help}`],
      [['--replSet', 'rs0/h:1'], `mayfly: option '--replSet <name>' argument 'rs0/h:1' is invalid. The replica set name must be a plain name such as 'rs0' (no '/' or ',', no seed list).${help}`],
      [['--prot', '1'], "mayfly: unknown option '--prot' (Did you mean --port?)"],
      [['--cosmos-capabilities', 'EnableTtlOnCustomPath'], 'mayfly: --cosmos-server-version, --cosmos-capabilities and --cosmos-rule-off need --compat cosmos (the default is --compat mongodb, a faithful mongod).'],
      [
        ['--compat', 'cosmos', '--cosmos-capabilities', 'Bogus'],
        "mayfly: --cosmos-capabilities: option 'cosmos.capabilities' has an unknown capability \"Bogus\"; the capabilities are AllVersionsAndDeletesChangeFeed, EnableMongo16MBDocumentSupport, EnableTtlOnCustomPath, EnableUniqueIndexReIndex.",
      ],
      [['--compat', 'cosmos', '--cosmos-rule-off', 'sortNeedIndex'], expect.stringContaining("mayfly: --cosmos-rule-off: option 'cosmos.rules' has an unknown rule 'sortNeedIndex'; the rules are changeStreamEvents, changeStreamNamespaceNotFound, changeStreamOptions, changeStreamPipeline, changeStreamScope, changeStreamThrottledPage, documentSizeLimit,") as unknown as string],
      [['--compat', 'cosmos', '--cosmos-server-version', '3.6'], `mayfly: option '--cosmos-server-version <version>' argument '3.6' is invalid. Allowed choices are 4.2, 5.0, 6.0, 7.0.${help}`],
      [['27017'], `mayfly: too many arguments. Expected 0 arguments but got 1.${help}`],
      [['--port', '0', '--ttl-monitor-sleep-secs', 'abc'], 'mayfly: Invalid value for parameter ttlMonitorSleepSecs: "abc" (given with --ttl-monitor-sleep-secs)'],
      [['--port', '0', '--set-parameter', 'ttlMonitorSleepSecs=-1'], 'mayfly: Invalid value for parameter ttlMonitorSleepSecs: -1 is not greater than 0 (given with --set-parameter)'],
      [
        ['--port', '0', '--set-parameter', 'ttlMonitorSleepSec=5'],
        "mayfly: --set-parameter: unknown server parameter 'ttlMonitorSleepSec'; the parameters settable at startup are cursorTimeoutMillis, internalDocumentSourceGroupMaxMemoryBytes, internalQueryMaxBlockingSortMemoryUsageBytes, logComponentVerbosity, logLevel, minSnapshotHistoryWindowInSeconds, quiet, transactionLifetimeLimitSeconds, ttlIndexDeleteTargetDocs, ttlIndexDeleteTargetTimeMS, ttlMonitorBatchDeletes, ttlMonitorEnabled, ttlMonitorSleepSecs, ttlMonitorSubPassTargetSecs",
      ],
    ];
    for (const [args, line] of cases) {
      const result = run(args);
      expect({ args, status: result.status, stderr: result.stderr.replace(/\n$/, ''), stdout: result.stdout }).toEqual({ args, status: 2, stderr: line, stdout: '' });
    }
  });

  it('answers a port already in use with one line, exit code 2, before logging anything', async () => {
    const { child, uri } = await startCli(['--port', '0', '--quiet']);
    const port = Number(new URL(uri).port);
    const result = run(['--port', String(port)]);
    expect({ status: result.status, stderr: result.stderr, stdout: result.stdout }).toEqual({
      status: 2,
      stderr: `mayfly: port ${port} on 127.0.0.1 is already in use (by another mongod or Mayfly?); stop that server, or choose another port with --port (0 picks any free port)\n`,
      stdout: '',
    });
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('--help and --version exit with 0', () => {
    const version = run(['--version']);
    expect({ status: version.status, stdout: version.stdout, stderr: version.stderr }).toEqual({ status: 0, stdout: `${MAYFLY_VERSION}\n`, stderr: '' });
    const helpText = run(['--help']);
    expect({ status: helpText.status, stderr: helpText.stderr }).toEqual({ status: 0, stderr: '' });
    expect(helpText.stdout.split('\n')[0]).toBe('Usage: mayfly [options]');
  });

  it('--help lists every flag', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    for (const flag of ['--cosmos-server-version', '--cosmos-capabilities', '--cosmos-rule-off', '--port', '--host', '--compat', '--log-level', '--quiet', '--clock', '--ttl-monitor-sleep-secs', '--set-parameter', '--replSet']) {
      expect(result.stdout).toContain(flag);
    }
  });
});
