/**
 * Turns a directory of unified-format test files into vitest suites: one `describe` per file, one
 * `it` per applicable test, each against a fresh set of databases on one in-process server per
 * file. Tests that do not apply to this server (runOnRequirements, skipReason) are not run; they
 * are listed with the reason in a generated, committed list that a test keeps up to date (a
 * missing list fails). Tests listed in `known_failures.ts` run too and must still fail, so that
 * list cannot rot. A summary is printed at the end.
 *
 * The spec tests are read from `$MAYFLY_SPEC_TESTS`, or else from `../shared/spec-tests` beside
 * the repository. Without them the suites are reported as skipped, saying so; a
 * `MAYFLY_SPEC_TESTS` that names no directory fails.
 *
 *   UPDATE_SPEC_LISTS=1 npx vitest run test/spec     # rewrite the not-applicable lists
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { MayflyServer } from '../../src/index.js';
import { loadSpecFile, notApplicableReason, probeServer, runUnifiedTest, type DriverDeviation, type SpecFile } from './unified_runner.js';
import type { ServerFacts } from './requirements.js';
import { KNOWN_FAILURES } from './known_failures.js';
import { describeWhenAvailable } from '../support/prerequisite.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Where the specification test files live: `$MAYFLY_SPEC_TESTS`, else `../shared/spec-tests` beside the repository. */
export const SPEC_TESTS_ROOT = process.env.MAYFLY_SPEC_TESTS ?? resolve(here, '../../../shared/spec-tests');

if (process.env.MAYFLY_SPEC_TESTS !== undefined && !existsSync(SPEC_TESTS_ROOT)) {
  throw new Error(`MAYFLY_SPEC_TESTS names ${SPEC_TESTS_ROOT}, which does not exist`);
}

/** What one suite covers. */
export interface SuiteOptions {
  /** Directory under SPEC_TESTS_ROOT (e.g. `crud`); also the prefix of known-failure keys. */
  dir: string;
  /** The generated not-applicable list (markdown), relative to this directory. */
  listFile: string;
  /** The one-node replica set of this name instead of a standalone (sessions, retryable writes). */
  replSet?: string;
}

async function startServer(replSet?: string): Promise<MayflyServer> {
  return MayflyServer.create({ compat: 'mongodb', ...(replSet === undefined ? {} : { replSet }) });
}

function internalClient(server: MayflyServer): MongoClient {
  return new MongoClient(server.getUri(), { serverSelectionTimeoutMS: 5000 });
}

/** The server's facts, asked from a throw-away server (requirements are decided up front). */
export async function serverFacts(replSet?: string): Promise<ServerFacts> {
  const server = await startServer(replSet);
  const client = internalClient(server);
  try {
    return await probeServer(client);
  } finally {
    await client.close();
    await server.stop();
  }
}

/**
 * What runs before each test: every session killed (killAllSessions: []), so that a
 * transaction a previous test left open (an abort the driver gave up on) holds nothing, as the
 * unified format asks of a runner on a replica set; then every database but admin, config and
 * local dropped.
 */
async function resetServer(client: MongoClient): Promise<void> {
  await client.db('admin').command({ killAllSessions: [] });
  await dropAllDatabases(client);
}

/** Drops every database but admin, config and local. */
async function dropAllDatabases(client: MongoClient): Promise<void> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  for (const { name } of databases) {
    if (name !== 'admin' && name !== 'config' && name !== 'local') await client.db(name).dropDatabase();
  }
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * Defines the suites of one directory (vitest collects them), or one skipped suite saying why
 * when the spec tests are not there.
 */
export async function defineSpecSuite(options: SuiteOptions): Promise<void> {
  const dir = join(SPEC_TESTS_ROOT, options.dir);
  if (!existsSync(dir)) {
    describeWhenAvailable(`spec ${options.dir}`, `${dir} does not exist (set MAYFLY_SPEC_TESTS to the spec-tests directory)`, () => {
      it('runs the unified-format tests', () => undefined);
    });
    return;
  }
  const facts = await serverFacts(options.replSet);
  const fileNames = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const files: Array<[string, SpecFile]> = fileNames.map((f) => [`${options.dir}/${f}`, loadSpecFile(join(dir, f))]);
  const notApplicable: Array<[string, string, string]> = [];
  const known = Object.fromEntries(Object.entries(KNOWN_FAILURES).filter(([k]) => k.startsWith(`${options.dir}/`)));
  const seenKnown = new Set<string>();
  const counts = { applicable: 0, passed: 0, driverVerified: 0, driverUnverified: 0, topology: 0, serverFailures: 0, notApplicable: 0 };

  for (const [key, file] of files) {
    const applicable = file.tests.filter((test) => {
      const reason = notApplicableReason(file, test, facts);
      if (reason !== undefined) notApplicable.push([key, test.description, reason]);
      return reason === undefined;
    });
    counts.notApplicable += file.tests.length - applicable.length;
    if (applicable.length === 0) continue;
    const descriptions = file.tests.map((t) => t.description);
    if (new Set(descriptions).size !== descriptions.length) throw new Error(`${key}: duplicate test descriptions`);

    describe(key, () => {
      let server: MayflyServer;
      let internal: MongoClient;
      beforeAll(async () => {
        server = await startServer(options.replSet);
        internal = internalClient(server);
        await internal.connect();
      });
      afterAll(async () => {
        await internal?.close();
        await server?.stop();
      });
      beforeEach(async () => {
        await resetServer(internal);
      });

      for (const test of applicable) {
        counts.applicable++;
        const reason = known[key]?.[test.description];
        if (reason !== undefined) seenKnown.add(`${key}\u0000${test.description}`);
        const run = (neutralise?: ReadonlySet<DriverDeviation>): Promise<void> =>
          runUnifiedTest(file, test, { uri: server.getUri(), internal, facts, ...(neutralise === undefined ? {} : { neutralise }) });
        if (reason === undefined) {
          it(test.description, async () => {
            await run();
            counts.passed++;
          });
        } else {
          it(`${test.description} [known failure: ${reason.why}]`, async () => {
            let failure: string | undefined;
            try {
              await run();
            } catch (err) {
              failure = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
            }
            if (process.env.SPEC_DEBUG === '1') console.log(`KNOWN ${key} / ${test.description}: ${failure}`);
            expect(failure, `now passes: remove it from known_failures.ts (${key} / ${test.description})`).toBeDefined();
            expect(failure, `fails for another reason than "${reason.why}"`).toMatch(reason.shows);
            if (reason.neutralise === undefined) {
              if (reason.kind === 'driver') counts.driverUnverified++;
              else if (reason.kind === 'topology') counts.topology++;
              else counts.serverFailures++;
              return;
            }
            // A driver deviation: with exactly that deviation neutralised, the test must pass.
            await resetServer(internal);
            try {
              await run(new Set([reason.neutralise]));
            } catch (err) {
              const again = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
              throw new Error(`listed as the driver deviation ${reason.neutralise}, but it fails with it neutralised too: ${again}`);
            }
            counts.driverVerified++;
          });
        }
      }
    });
  }

  describe(`${options.dir}: bookkeeping`, () => {
    it('every known failure names an applicable test of this directory', () => {
      const stale: string[] = [];
      for (const [key, tests] of Object.entries(known)) {
        for (const description of Object.keys(tests)) {
          if (!seenKnown.has(`${key}\u0000${description}`)) stale.push(`${key} / ${description}`);
        }
      }
      expect(stale).toEqual([]);
    });

    it('the generated not-applicable list is up to date', () => {
      const path = join(here, options.listFile);
      const lines = [
        `# ${options.dir}: spec tests that do not apply to Mayfly`,
        '',
        `Generated by \`test/spec/suite.ts\` (\`UPDATE_SPEC_LISTS=1 npx vitest run test/spec\`) from`,
        `\`spec-tests/${options.dir}\` and the tests' \`runOnRequirements\`/\`skipReason\`,`,
        `evaluated against what Mayfly reports (server ${facts.version.join('.')}, topology \`${facts.topology}\`, no auth,`,
        'not serverless, no client-side encryption). These tests are not run.',
        '',
        '| file | test | reason |',
        '| --- | --- | --- |',
        ...notApplicable.map(([f, t, r]) => `| ${escapeCell(f)} | ${escapeCell(t || '(no description)')} | ${escapeCell(r)} |`),
        '',
      ];
      const text = lines.join('\n');
      if (process.env.UPDATE_SPEC_LISTS === '1') writeFileSync(path, text);
      expect(existsSync(path), `${options.listFile} is missing: generate it with UPDATE_SPEC_LISTS=1 npx vitest run test/spec`).toBe(true);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  });

  afterAll(() => {
    const failed = counts.applicable - counts.passed - counts.driverVerified - counts.driverUnverified - counts.topology - counts.serverFailures;
    const rate = (n: number): string => (counts.applicable === 0 ? '-' : `${((100 * n) / counts.applicable).toFixed(1)} %`);
    console.log(
      `[spec ${options.dir}] tests: ${counts.applicable + counts.notApplicable} | applicable: ${counts.applicable} | passed: ${counts.passed} | ` +
        `driver deviations (verified to pass otherwise): ${counts.driverVerified} | driver failures (not verifiable): ${counts.driverUnverified} | ` +
        `one-node topology: ${counts.topology} | server failures: ${counts.serverFailures} | not passing and not listed: ${failed} | not applicable: ${counts.notApplicable} | ` +
        `server passes: ${rate(counts.passed + counts.driverVerified)} of the applicable`,
    );
  });
}
