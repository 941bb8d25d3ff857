/**
 * Running the real clients (mongosh, python3) and the compiled command line (`bin/mayfly.js`)
 * from integration tests without blocking this process, which holds the server under test: one
 * runner for every test that drives a shell or the CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The project's root directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The compiled command line (built by `npm test`'s pretest). */
export const MAYFLY_BIN = path.join(PROJECT_ROOT, 'bin', 'mayfly.js');

/** A CLI server started by `startCli`: its process, its URI and the stdout lines until the URI. */
export interface CliServer {
  child: ChildProcess;
  uri: string;
  lines: string[];
}

/** Starts `mayfly args` and resolves with the URI of its listening line (10 s at most). */
export function startCli(args: readonly string[]): Promise<CliServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAYFLY_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Stops a CLI server with SIGTERM; resolves with its exit code. */
export function stopCli(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

/** The mongosh the project installs (a dev dependency). */
export const MONGOSH = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'mongosh');

/** What a finished program printed, and its exit status (null when killed). */
export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs `file args` (stdin: `input`, or closed), killed after 60 s; colours and update checks off. */
export function runProcess(file: string, args: readonly string[], input?: string): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: { ...process.env, MONGOSH_NO_UPDATE_CHECK: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, status });
    });
    child.stdin.end(input);
  });
}

/** Runs `script` in mongosh with `args` (a URI and options), quietly and without an rc file. */
export function runMongosh(args: readonly string[], script: string): Promise<ProcessOutcome> {
  return runProcess(MONGOSH, [...args, '--norc', '--quiet', '--eval', script]);
}
