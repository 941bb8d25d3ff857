/**
 * The package as a user installs it: `npm pack` ships exactly the files the example projects are
 * run against (test/runners/example_project.ts), every target of the `exports` map and the bin
 * are among them, and each entry point loads by its name from a project that installed it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { layOutExample, packageFiles, repoRoot, type ExampleProject } from './example_project.js';

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};

/** npm's command line: the one running this test when there is one, else npm on the PATH. */
function npm(args: string[]) {
  const cli = process.env.npm_execpath;
  const [command, prefix] = cli && /npm-cli\.js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
  return spawnSync(command, [...prefix, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
}

describe('the package', () => {
  test('npm pack ships the files the examples run against, with every exports target and the bin', () => {
    const result = npm(['pack', '--dry-run', '--json', '--ignore-scripts']);
    expect(result.status, result.stderr).toBe(0);
    const [report] = JSON.parse(result.stdout) as [{ files: { path: string }[] }];
    const packed = report.files.map((f) => f.path).sort();
    expect(packed).toEqual(packageFiles());
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
    for (const target of [...targets, ...Object.values(pkg.bin)]) expect(packed).toContain(target.replace(/^\.\//, ''));
    expect(packed.filter((f) => /^(src|test|examples|scripts|docs)\//.test(f))).toEqual([]);
  });

  describe('installed in a project', () => {
    let project: ExampleProject;
    beforeAll(() => {
      project = layOutExample('node-test');
    });
    afterAll(() => project.remove());

    function node(args: string[]) {
      const r = spawnSync(process.execPath, args, { cwd: project.dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
      return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
    }

    test('each ESM entry point imports by name', () => {
      const script = `
        const main = await import('mayfly');
        const vitest = await import('mayfly/vitest');
        const mocha = await import('mayfly/mocha');
        const { default: p } = await import('mayfly/package.json', { with: { type: 'json' } });
        console.log(JSON.stringify({
          main: [typeof main.MayflyServer.create, typeof main.MayflyOptionError],
          vitest: [typeof vitest.default, typeof vitest.mayflyGlobalSetup],
          mocha: [typeof mocha.mochaGlobalSetup, typeof mocha.mochaGlobalTeardown, typeof mocha.mayflyFixtures],
          version: p.version,
        }));`;
      expect(node(['--input-type=module', '-e', script])).toEqual({
        status: 0,
        stdout: JSON.stringify({ main: ['function', 'function'], vitest: ['function', 'function'], mocha: ['function', 'function', 'function'], version: pkg.version }),
        stderr: '',
      });
    });

    test('each CommonJS entry point requires by name (as Jest loads them)', () => {
      const script = `
        const jest = require('mayfly/jest');
        const preset = require('mayfly/jest-preset');
        console.log(JSON.stringify({
          jest: [typeof jest.mayflyGlobalSetup, typeof jest.mayflyGlobalTeardown],
          setup: typeof require('mayfly/jest/global-setup'),
          teardown: typeof require('mayfly/jest/global-teardown'),
          preset: [require.resolve('mayfly/jest/global-setup') === preset.globalSetup, require.resolve('mayfly/jest/global-teardown') === preset.globalTeardown],
          worker: require.resolve('mayfly/worker').endsWith('dist/testing/worker.cjs'),
        }));`;
      expect(node(['-e', script])).toEqual({
        status: 0,
        stdout: JSON.stringify({ jest: ['function', 'function'], setup: 'function', teardown: 'function', preset: [true, true], worker: true }),
        stderr: '',
      });
    });

    test('the bin runs from the installed package', () => {
      expect(node([path.join('node_modules', 'mayfly', pkg.bin.mayfly!), '--version'])).toEqual({ status: 0, stdout: pkg.version, stderr: '' });
    });
  });
});
