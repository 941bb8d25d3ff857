/**
 * Access control from the command line (the compiled `bin/mayfly.js`): `--auth`,
 * `--username/--password`, and the root user from MAYFLY_ROOT_* or Docker's
 * MONGO_INITDB_ROOT_* variables; a name without a password is a usage error.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'mayfly.js');

/** Starts the CLI with `args` and `env`; resolves with the port from its listening line. */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...env } });
    const rl = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error('no URI line')), 10_000);
    rl.on('line', (line) => {
      const match = /mongodb:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function ping(uri: string): Promise<unknown> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    return await client.db('app').collection('c').countDocuments();
  } finally {
    await client.close();
  }
}

describe('mayfly --auth', () => {
  test.each([
    ['--username/--password', ['--username', 'root', '--password', 'example'], {}],
    ['MAYFLY_ROOT_*', [], { MAYFLY_ROOT_USERNAME: 'root', MAYFLY_ROOT_PASSWORD: 'example' }],
    ['MONGO_INITDB_ROOT_*', [], { MONGO_INITDB_ROOT_USERNAME: 'root', MONGO_INITDB_ROOT_PASSWORD: 'example' }],
  ])('a root user from %s turns authentication on', async (_how, args, env) => {
    const { child, port } = await start(args, env);
    try {
      expect(await ping(`mongodb://root:example@127.0.0.1:${port}/`)).toBe(0);
      await expect(ping(`mongodb://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 13, message: 'Command aggregate requires authentication' });
      const client = new MongoClient(`mongodb://root:example@127.0.0.1:${port}/`);
      await client.connect();
      const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
      await client.close();
      expect(opts.parsed.security).toEqual({ authorization: 'enabled' });
      expect(opts.argv).not.toContain('example');
    } finally {
      await stop(child);
    }
  });

  test('--auth with no user: the localhost exception', async () => {
    const { child, port } = await start(['--auth']);
    try {
      await expect(ping(`mongodb://127.0.0.1:${port}/`)).rejects.toMatchObject({ code: 13 });
      const client = new MongoClient(`mongodb://127.0.0.1:${port}/`);
      await client.connect();
      expect(await client.db('admin').command({ createUser: 'first', pwd: 'pw', roles: ['root'] })).toEqual({ ok: 1 });
      await client.close();
      expect(await ping(`mongodb://first:pw@127.0.0.1:${port}/`)).toBe(0);
    } finally {
      await stop(child);
    }
  });

  test('a user name without a password is a usage error', () => {
    const result = spawnSync(process.execPath, [bin, '--port', '0', '--username', 'root'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mayfly: --username is given without --password; give both to create the root user.\n');
    const env = spawnSync(process.execPath, [bin, '--port', '0'], { encoding: 'utf8', env: { PATH: process.env.PATH, MONGO_INITDB_ROOT_PASSWORD: 'x' } });
    expect(env.status).toBe(2);
    expect(env.stderr).toBe('mayfly: MONGO_INITDB_ROOT_PASSWORD is given without MONGO_INITDB_ROOT_USERNAME; give both to create the root user.\n');
  });
});
