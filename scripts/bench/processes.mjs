// The bench's child processes: the servers it measures (Mayfly and the null server, each in a
// process of its own) and the scripts whose figures need a fresh process (they print JSON).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The project's root: every child runs there. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts `node args…`; resolves with the child and the URI it prints once it listens. */
export function startProcess(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const rl = readline.createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      const m = /mongodb:\/\/[^"\s]+/.exec(line);
      if (m) resolve({ child, uri: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

/** The null server (`null_server.mjs`). */
export const startNull = () => startProcess(['scripts/bench/null_server.mjs']);

/** Mayfly from its command line, with `extra` arguments. */
export const startMayfly = (extra = []) => startProcess(['--max-old-space-size=8192', 'bin/mayfly.js', '--port', '0', '--quiet', ...extra]);

/** Stops a server started here and waits for its process to end. */
export function stop(server) {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.on('exit', resolve);
    server.child.kill('SIGTERM');
  });
}

/** Runs `node args…` to its end and parses what it printed as JSON. */
export function childFigures(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`${args.join(' ')} failed`))));
  });
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
