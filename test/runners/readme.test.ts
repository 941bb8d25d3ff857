/**
 * The README tells the truth about what it shows: each recipe block headed `// examples/<file>`
 * (in the README or docs/test_runners.md, where the other runners' recipes are) is that file of
 * the example projects (which test/runners/*.test.ts run), every example project is shown, and
 * every test the compatibility table names exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from './example_project.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const runnerRecipes = readFileSync(path.join(repoRoot, 'docs', 'test_runners.md'), 'utf8');

/** The fenced code blocks of the README and the runner recipes, each as its lines. */
function blocks(): string[][] {
  return [...(readme + '\n' + runnerRecipes).matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.replace(/\n$/, '').split('\n'));
}

describe('README', () => {
  test('each recipe block is the example file it names, and every example project is shown', () => {
    const shown = new Set<string>();
    for (const lines of blocks()) {
      const named = /^\/\/ (examples\/\S+)$/.exec(lines[0]!)?.[1];
      if (named === undefined) continue;
      expect(lines.slice(1).join('\n') + '\n', named).toBe(readFileSync(path.join(repoRoot, named), 'utf8'));
      shown.add(named.split('/')[1]!);
    }
    expect([...shown].sort()).toEqual(readdirSync(path.join(repoRoot, 'examples')).sort());
  });

  test('every row of the compatibility tables names tests, and each exists', () => {
    const section = readme.slice(readme.indexOf('## What works'), readme.indexOf('## Use it from a test runner'));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !/^\| (works|does not work yet) \|/.test(l));
    expect(rows.length).toBe(28);
    const unbacked: string[] = [];
    for (const row of rows) {
      let dir = '';
      let named = 0;
      for (const [, token] of row.matchAll(/`([^`]+)`/g)) {
        if (!/^test\/|\.test\.ts$/.test(token!)) continue;
        const full = token!.startsWith('test/') ? token! : path.posix.join(dir, token!);
        dir = full.endsWith('/') ? full : path.posix.dirname(full);
        named++;
        if (full.includes('*')) {
          const pattern = new RegExp(`^${path.posix.basename(full).replace('.', '\\.').replace('*', '.*')}$`);
          expect(readdirSync(path.join(repoRoot, path.posix.dirname(full))).some((f) => pattern.test(f)), full).toBe(true);
        } else {
          expect(existsSync(path.join(repoRoot, full)), full).toBe(true);
        }
      }
      if (named === 0) unbacked.push(row);
    }
    expect(unbacked).toEqual([]);
  });
});
