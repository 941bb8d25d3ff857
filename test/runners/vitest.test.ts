/**
 * The Vitest recipes of the README, run by a real Vitest (this repository's) in a child process:
 * `examples/vitest` (globalSetup `mayfly/vitest`: one server for the run) and
 * `examples/vitest-per-worker` (`mayflyGlobalSetup({ perWorker, clock, compat })` and the setup
 * file `mayfly/worker`: one server per worker). Two probe test files added to each copy report
 * the worker and the URI each test file was handed; after the run, every server is stopped.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layOutExample, type ExampleProject } from './example_project.js';
import { expectOneServerForTheRun, expectOneServerPerWorker } from './probe_checks.js';

/** A probe test file: asks the server it was handed for its clock, and reports. */
function probe(name: string): string {
  return `import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { expect, test } from 'vitest';

test('probe ${name}', async () => {
  const client = await MongoClient.connect(process.env.MONGODB_URI);
  const clock = await client.db('admin').command({ mayflyClock: 1 });
  await client.close();
  expect(clock.ok).toBe(1);
  const report = { worker: process.env.VITEST_POOL_ID, uri: process.env.MONGODB_URI, workerUris: process.env.MAYFLY_WORKER_URIS ?? null, clock: clock.clock };
  writeFileSync(path.join(process.env.PROBE_DIR, '${name}.json'), JSON.stringify(report));
});
`;
}

/** Vitest's closing counts. */
function summary(output: string): { files: string | undefined; tests: string | undefined } {
  return { files: /Test Files\s+(.+)/.exec(output)?.[1]?.trim(), tests: /\n\s+Tests\s+(.+)/.exec(output)?.[1]?.trim() };
}

let project: ExampleProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

describe('Vitest', () => {
  test('examples/vitest: one server for the run, its URI in MONGODB_URI, stopped at the end', async () => {
    project = layOutExample('vitest');
    project.write('test/probe_a.test.js', probe('a'));
    project.write('test/probe_b.test.js', probe('b'));
    const result = await project.npmTest(['--maxWorkers=2']);
    expect(result.status, result.output).toBe(0);
    expect(summary(result.output)).toEqual({ files: '4 passed (4)', tests: '4 passed (4)' });
    await expectOneServerForTheRun(project);
  });

  test('examples/vitest-per-worker: one server per worker, each on the test clock, all stopped at the end', async () => {
    project = layOutExample('vitest-per-worker');
    project.write('test/probe_a.test.js', probe('a'));
    project.write('test/probe_b.test.js', probe('b'));
    const result = await project.npmTest(['--maxWorkers=2']);
    expect(result.status, result.output).toBe(0);
    expect(summary(result.output)).toEqual({ files: '4 passed (4)', tests: '4 passed (4)' });
    await expectOneServerPerWorker(project);
  });
});
