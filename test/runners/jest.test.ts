/**
 * The Jest recipes (docs/test_runners.md), run by a real Jest (this repository's dev dependency) in a
 * child process: `examples/jest` (`preset: 'mayfly'`: one server for the run) and
 * `examples/jest-per-worker` (`mayflyGlobalSetup({ perWorker, clock })`, the global teardown and
 * the setup file `mayfly/worker`: one server per worker). Two probe test files added to each copy
 * report the worker and the URI each test file was handed; after the run, every server is stopped.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layOutExample, type ExampleProject } from './example_project.js';
import { expectOneServerForTheRun, expectOneServerPerWorker } from './probe_checks.js';

/** A probe test file (CommonJS, as Jest runs it): asks its server for the clock, and reports. */
function probe(name: string): string {
  return `const { writeFileSync } = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');

test('probe ${name}', async () => {
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const clock = await client.db('admin').command({ mayflyClock: 1 });
  await client.close();
  expect(clock.ok).toBe(1);
  const report = { worker: process.env.JEST_WORKER_ID, uri: process.env.MONGODB_URI, workerUris: process.env.MAYFLY_WORKER_URIS ?? null, clock: clock.clock };
  writeFileSync(path.join(process.env.PROBE_DIR, '${name}.json'), JSON.stringify(report));
});
`;
}

/** Jest's closing counts. */
function summary(output: string): { suites: string | undefined; tests: string | undefined } {
  return { suites: /Test Suites:\s+(.+)/.exec(output)?.[1]?.trim(), tests: /\nTests:\s+(.+)/.exec(output)?.[1]?.trim() };
}

let project: ExampleProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

describe('Jest', () => {
  test("examples/jest: preset 'mayfly', one server for the run, its URI in MONGODB_URI, stopped at the end", async () => {
    project = layOutExample('jest');
    project.write('test/probe_a.test.js', probe('a'));
    project.write('test/probe_b.test.js', probe('b'));
    const result = await project.npmTest(['--maxWorkers=2']);
    expect(result.status, result.output).toBe(0);
    expect(summary(result.output)).toEqual({ suites: '4 passed, 4 total', tests: '5 passed, 5 total' });
    await expectOneServerForTheRun(project);
  });

  test('examples/jest-per-worker: one server per worker, each on the test clock, all stopped at the end', async () => {
    project = layOutExample('jest-per-worker');
    project.write('test/probe_a.test.js', probe('a'));
    project.write('test/probe_b.test.js', probe('b'));
    const result = await project.npmTest(['--maxWorkers=2']);
    expect(result.status, result.output).toBe(0);
    expect(summary(result.output)).toEqual({ suites: '4 passed, 4 total', tests: '4 passed, 4 total' });
    await expectOneServerPerWorker(project);
  });
});
