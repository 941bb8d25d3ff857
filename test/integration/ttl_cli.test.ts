/**
 * The TTL flags of the command line (the compiled `bin/mayfly.js`, built by `npm test`):
 * `--clock manual` and the four TTL parameters, seen through getParameter and mayflyClock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { MongoClient } from 'mongodb';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'mayfly.js');

function start(args: string[]): Promise<{ child: ChildProcess; uri: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const rl = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('no URI line')), 10_000);
    rl.on('line', (line) => {
      const match = /mongodb:\/\/[^"\s]+/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, uri: match[0] });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
}

test('--clock manual and the TTL flags become the server parameters', async () => {
  const { child, uri } = await start([
    '--port', '0', '--quiet', '--clock', 'manual',
    '--ttl-monitor-enabled', 'false', '--ttl-monitor-sleep-secs', '3',
    '--ttl-index-delete-target-docs', '10', '--ttl-index-delete-target-time-ms', '20',
  ]);
  const client = new MongoClient(uri);
  try {
    await client.connect();
    const admin = client.db('admin');
    expect(
      await admin.command({ getParameter: 1, ttlMonitorEnabled: 1, ttlMonitorSleepSecs: 1, ttlIndexDeleteTargetDocs: 1, ttlIndexDeleteTargetTimeMS: 1 }),
    ).toEqual({ ttlMonitorEnabled: false, ttlMonitorSleepSecs: 3, ttlIndexDeleteTargetDocs: 10, ttlIndexDeleteTargetTimeMS: 20, ok: 1 });
    const before = await admin.command({ mayflyClock: 1 });
    expect(before.clock).toBe('manual');
    const after = await admin.command({ mayflyAdvanceClock: 5 });
    expect(after.nowMillis).toBe(before.nowMillis + 5000);
  } finally {
    await client.close();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
