/**
 * Runs a project of `examples/` as its user would (`npm test` in it), against this repository's
 * built package, with nothing installed and no network: the project is copied into a temporary
 * folder whose `node_modules/mayfly` holds the files `npm pack` puts in the package (as an
 * install from the registry or from the tarball would; test/runners/package.test.ts checks that
 * the two lists agree), and whose other packages link to this repository's `node_modules`
 * (Mocha is copied: it resolves `--require` from where it is installed).
 *
 * Probes (extra test files the example does not have) can be added to the copy; they report what
 * a test saw (its worker, the URI it was handed) as JSON files in `probeDir`.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Dev dependencies that must be real folders in the project (not links into this repository). */
const COPIED = new Set(['mocha']);

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A laid-out copy of an example project. */
export interface ExampleProject {
  readonly dir: string;
  readonly probeDir: string;
  /** Adds a file to the copy (a probe test). */
  write(relative: string, content: string): void;
  /** What the probes reported, by file name. */
  probes(): Record<string, Record<string, unknown>>;
  /** `npm test -- <args>` in the copy. */
  npmTest(args?: string[]): Promise<RunResult>;
  remove(): void;
}

export interface RunResult {
  status: number | null;
  output: string;
  ms: number;
}

/** Copies `examples/<name>` into a temporary folder and links its dependencies. */
export function layOutExample(name: string): ExampleProject {
  const source = path.join(repoRoot, 'examples', name);
  if (!existsSync(path.join(repoRoot, 'dist', 'index.js'))) throw new Error('dist/ is missing: run npm run build first (npm test does)');
  const dir = mkdtempSync(path.join(os.tmpdir(), `mayfly-example-${name}-`));
  cpSync(source, dir, { recursive: true });
  const probeDir = path.join(dir, '.probes');
  mkdirSync(probeDir);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  for (const file of packageFiles()) cpSync(path.join(repoRoot, file), path.join(modules, 'mayfly', file));
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const dep of Object.keys(pkg.devDependencies)) {
    if (dep === 'mayfly') continue;
    const target = path.join(repoRoot, 'node_modules', dep);
    if (!existsSync(target)) throw new Error(`examples/${name} needs ${dep}, which is not in this repository's node_modules (run npm ci)`);
    // Mocha resolves --require from where it is installed: it must be in the project, as in a real install.
    if (COPIED.has(dep)) cpSync(target, path.join(modules, dep), { recursive: true });
    else symlinkSync(target, path.join(modules, dep), 'dir');
    const depPkg = JSON.parse(readFileSync(path.join(target, 'package.json'), 'utf8')) as { name: string; bin?: string | Record<string, string> };
    const bins = typeof depPkg.bin === 'string' ? { [depPkg.name]: depPkg.bin } : (depPkg.bin ?? {});
    for (const [bin, file] of Object.entries(bins)) symlinkSync(path.join('..', dep, file), path.join(modules, '.bin', bin));
  }
  // Everything else (Mayfly's dependencies, and theirs) as npm would have hoisted it.
  for (const entry of readdirSync(path.join(repoRoot, 'node_modules'))) {
    if (entry.startsWith('.') || existsSync(path.join(modules, entry))) continue;
    symlinkSync(path.join(repoRoot, 'node_modules', entry), path.join(modules, entry), 'dir');
  }
  return {
    dir,
    probeDir,
    write(relative, content) {
      mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
      writeFileSync(path.join(dir, relative), content);
    },
    probes() {
      const out: Record<string, Record<string, unknown>> = {};
      for (const file of readdirSync(probeDir).sort()) out[file] = JSON.parse(readFileSync(path.join(probeDir, file), 'utf8'));
      return out;
    },
    npmTest(args = []) {
      return run(dir, args, probeDir);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The files of the package, as `npm pack` chooses them: package.json, the README, and what the
 * `files` field of package.json names (here folders, taken whole).
 */
export function packageFiles(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
  const out = ['package.json', 'README.md'];
  const walk = (relative: string) => {
    const full = path.join(repoRoot, relative);
    if (statSync(full).isDirectory()) for (const entry of readdirSync(full).sort()) walk(path.posix.join(relative, entry));
    else out.push(relative);
  };
  for (const entry of pkg.files) walk(entry);
  return out.sort();
}

/** The environment of a user's shell: none of this test run's own variables. */
function userEnv(probeDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|JEST_|MOCHA_|MAYFLY_|npm_|NODE_OPTIONS$|NODE_ENV$|INIT_CWD$|MONGODB_URI$|TEST$)/.test(key)) continue;
    env[key] = value;
  }
  // No network: npm's update check is the one request `npm test` could make.
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', PROBE_DIR: probeDir, npm_config_update_notifier: 'false' };
}

/** npm's command line: the one running this test when there is one, else npm on the PATH. */
function npmCommand(): [string, string[]] {
  const cli = process.env.npm_execpath;
  if (cli && /npm-cli\.js$/.test(cli)) return [process.execPath, [cli]];
  return ['npm', []];
}

function run(cwd: string, args: string[], probeDir: string): Promise<RunResult> {
  const [command, prefix] = npmCommand();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, 'test', '--silent', ...(args.length ? ['--', ...args] : [])], {
      cwd,
      env: userEnv(probeDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      // eslint-disable-next-line no-control-regex
      resolve({ status, output: output.replace(/\u001b\[[0-9;]*m/g, ''), ms: Math.round(performance.now() - started) });
    });
  });
}

/** Whether something still listens at `uri`'s port (a stopped server refuses connections). */
export function listening(uri: string): Promise<boolean> {
  const { hostname, port } = new URL(uri);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
