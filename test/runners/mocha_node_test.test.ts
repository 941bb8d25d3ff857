/**
 * The Mocha and node:test recipes (docs/test_runners.md), run by a real Mocha (this repository's dev
 * dependency) and by `node --test` in child processes: `examples/mocha` (`--require mayfly/mocha`:
 * one server for the run, its URI in MONGODB_URI) and `examples/node-test` (`MayflyServer` in
 * each test file, which node --test runs in a process of its own).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layOutExample, listening, type ExampleProject } from './example_project.js';

let project: ExampleProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

describe('Mocha', () => {
  test('examples/mocha: the global fixtures of mayfly/mocha start one server and stop it at the end', async () => {
    project = layOutExample('mocha');
    project.write(
      'test/probe.test.js',
      `import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';

it('probe', async function () {
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const clock = await client.db('admin').command({ mayflyClock: 1 });
  await client.close();
  assert.equal(clock.ok, 1);
  writeFileSync(path.join(process.env.PROBE_DIR, 'probe.json'), JSON.stringify({ uri: process.env.MONGODB_URI, clock: clock.clock }));
});
`,
    );
    const result = await project.npmTest();
    expect(result.status, result.output).toBe(0);
    expect(/(\d+) passing/.exec(result.output)?.[1]).toBe('3');
    expect(result.output).not.toMatch(/failing|pending/);
    const { 'probe.json': probe, ...rest } = project.probes();
    expect(rest).toEqual({});
    expect(probe).toEqual({ uri: expect.stringMatching(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/), clock: 'system' });
    expect(await listening(probe!.uri as string)).toBe(false);
  });
});

describe('node:test', () => {
  test('examples/node-test: a server per test file, through the embedding API', async () => {
    project = layOutExample('node-test');
    const result = await project.npmTest();
    expect(result.status, result.output).toBe(0);
    const count = (name: string) => new RegExp(`^(?:# |ℹ )${name} (\\d+)$`, 'm').exec(result.output)?.[1]; // TAP (Node 20 in a pipe) or spec
    expect({ tests: count('tests'), pass: count('pass'), fail: count('fail'), skipped: count('skipped') }).toEqual({ tests: '4', pass: '4', fail: '0', skipped: '0' });
  });
});
