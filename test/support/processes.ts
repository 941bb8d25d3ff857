/**
 * Running the real clients (mongosh, python3) from integration tests without blocking this
 * process, which holds the server under test: one runner for every test that drives a shell.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
