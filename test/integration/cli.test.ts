/**
 * The command line as a user runs it (the compiled `bin/mayfly.js`, built by `npm test`):
 * flags, the one URI line, a working server, clean shutdown on SIGTERM/SIGINT, bad flags.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { TestClient } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'mayfly.js');

/** Starts the CLI and resolves with the URI from its listening line. */
function start(args: string[]): Promise<{ child: ChildProcess; uri: string; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const rl = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`no URI line; got ${lines.join('\n')}`)), 10_000);
    rl.on('line', (line) => {
      lines.push(line);
      const match = /mongodb:\/\/[^"\s]+/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, uri: match[0], lines });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${lines.join('\n')}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('mayfly CLI', () => {
  it('starts on a free port, logs one JSON line with its URI, serves, and stops on SIGTERM', async () => {
    const { child, uri, lines } = await start(['--port', '0', '--compat', 'mongodb']);
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

  it('keeps serving when its stdout is closed (mayfly | head -1), and still stops cleanly', async () => {
    const { child, uri } = await start(['--port', '0']);
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
    const { child } = await start(['--port', '0']);
    const exited = exitCode(child);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('--quiet logs only the listening line', async () => {
    const { child, uri, lines } = await start(['--port', '0', '--quiet']);
    const client = new MongoClient(uri);
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    await client.close();
    const exited = exitCode(child);
    child.kill('SIGTERM');
    await exited;
    expect(lines.filter((l) => l.includes('connection accepted'))).toEqual([]);
  });

  it('rejects a bad flag value with a clear error and a non-zero exit', () => {
    const result = spawnSync(process.execPath, [bin, '--compat', 'oracle'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("error: option '--compat <mode>' argument 'oracle' is invalid. Allowed choices are cosmos, mongodb.");
    const port = spawnSync(process.execPath, [bin, '--port', '70000'], { encoding: 'utf8' });
    expect(port.status).toBe(1);
    expect(port.stderr).toContain('must be an integer from 0 to 65535.');
  });

  it('--help lists every flag', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    for (const flag of ['--port', '--host', '--compat', '--log-level', '--quiet', '--clock', '--ttl-monitor-sleep-secs', '--set-parameter']) {
      expect(result.stdout).toContain(flag);
    }
  });
});
