/**
 * Turns a directory of unified-format test files into vitest suites: one `describe` per file, one
 * `it` per applicable test, each against a fresh set of databases on one in-process server per
 * file. Tests that do not apply to this server (runOnRequirements, skipReason) are not run; they
 * are listed with the reason in a generated, committed list that a test keeps up to date. Tests
 * listed in `known_failures.ts` run too and must still fail, so that list cannot rot. A summary
 * is printed at the end.
 *
 *   UPDATE_SPEC_LISTS=1 npx vitest run test/spec     # rewrite the not-applicable lists
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { MayflyServer } from '../../src/index.js';
import { loadSpecFile, notApplicableReason, probeServer, runUnifiedTest, type SpecFile } from './unified_runner.js';
import type { ServerFacts } from './requirements.js';
import { KNOWN_FAILURES } from './known_failures.js';

/** Where the specification test files live. */
export const SPEC_TESTS_ROOT = '/work/shared/spec-tests';

/** What one suite covers. */
export interface SuiteOptions {
  /** Directory under SPEC_TESTS_ROOT (e.g. `crud`); also the prefix of known-failure keys. */
  dir: string;
  /** The generated not-applicable list (markdown), relative to this directory. */
  listFile: string;
}

const here = new URL('.', import.meta.url).pathname;

async function startServer(): Promise<MayflyServer> {
  return MayflyServer.create({ compat: 'mongodb' });
}

function internalClient(server: MayflyServer): MongoClient {
  return new MongoClient(server.getUri(), { serverSelectionTimeoutMS: 5000 });
}

/** The server's facts, asked from a throw-away server (requirements are decided up front). */
export async function serverFacts(): Promise<ServerFacts> {
  const server = await startServer();
  const client = internalClient(server);
  try {
    return await probeServer(client);
  } finally {
    await client.close();
    await server.stop();
  }
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

/** Defines the suites of one directory; returns nothing (vitest collects them). */
export function defineSpecSuite(options: SuiteOptions, facts: ServerFacts): void {
  const dir = join(SPEC_TESTS_ROOT, options.dir);
  const fileNames = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const files: Array<[string, SpecFile]> = fileNames.map((f) => [`${options.dir}/${f}`, loadSpecFile(join(dir, f))]);
  const notApplicable: Array<[string, string, string]> = [];
  const known = Object.fromEntries(Object.entries(KNOWN_FAILURES).filter(([k]) => k.startsWith(`${options.dir}/`)));
  const seenKnown = new Set<string>();
  const counts = { applicable: 0, passed: 0, knownFailures: 0, notApplicable: 0 };

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
        server = await startServer();
        internal = internalClient(server);
        await internal.connect();
      });
      afterAll(async () => {
        await internal?.close();
        await server?.stop();
      });
      beforeEach(async () => {
        await dropAllDatabases(internal);
      });

      for (const test of applicable) {
        counts.applicable++;
        const reason = known[key]?.[test.description];
        if (reason !== undefined) seenKnown.add(`${key}\u0000${test.description}`);
        const run = (): Promise<void> => runUnifiedTest(file, test, { uri: server.getUri(), internal, facts });
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
            expect(failure, `now passes: remove it from known_failures.ts (${key} / ${test.description})`).toBeDefined();
            expect(failure, `fails for another reason than "${reason.why}"`).toMatch(reason.shows);
            counts.knownFailures++;
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
      if (process.env.UPDATE_SPEC_LISTS === '1' || !existsSync(path)) writeFileSync(path, text);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  });

  afterAll(() => {
    const failed = counts.applicable - counts.passed - counts.knownFailures;
    console.log(
      `[spec ${options.dir}] tests: ${counts.applicable + counts.notApplicable} | applicable: ${counts.applicable} | passed: ${counts.passed} | ` +
        `known failures (asserted failing): ${counts.knownFailures} | not passing and not listed: ${failed} | not applicable: ${counts.notApplicable}`,
    );
  });
}
