/**
 * The Cosmos DB mode's settings: `--compat mongodb` is the default; `MayflyServer.create`'s
 * `cosmos` option and its strict validation; the server version in buildInfo and hello.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { MayflyServer, MayflyOptionError } from '../../src/index.js';
import { startHarness, type Harness } from './harness.js';

const open: Harness[] = [];
afterAll(async () => {
  for (const h of open) await h.close();
});
async function harness(options: Parameters<typeof startHarness>[0]): Promise<Harness> {
  const h = await startHarness(options);
  open.push(h);
  return h;
}

describe('the mode', () => {
  test('the default is mongodb: buildInfo 8.0.0, wire version 25, no _t', async () => {
    const h = await harness({});
    const info = await h.db.command({ buildInfo: 1 });
    expect([info.version, info.versionArray]).toEqual(['8.0.0', [8, 0, 0, 0]]);
    expect((await h.db.command({ hello: 1 })).maxWireVersion).toBe(25);
    expect(await h.db.command({ createIndexes: 'x', indexes: [{ key: { a: 1 }, name: 'a_1' }] })).toEqual({ createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2, ok: 1 });
  });

  test.each([
    ['5.0', '5.0.0', [5, 0, 0, 0], 13],
    ['6.0', '6.0.0', [6, 0, 0, 0], 17],
    ['7.0', '7.0.0', [7, 0, 0, 0], 21],
  ] as const)('cosmos %s: buildInfo %s and maxWireVersion', async (serverVersion, version, versionArray, wire) => {
    const h = await harness({ compat: 'cosmos', cosmos: { serverVersion } });
    const info = await h.db.command({ buildInfo: 1 });
    expect([info.version, info.versionArray]).toEqual([version, versionArray]);
    expect((await h.db.command({ hello: 1 })).maxWireVersion).toBe(wire);
  });

  test('cosmos without a version is 7.0', async () => {
    const h = await harness({ compat: 'cosmos' });
    expect((await h.db.command({ buildInfo: 1 })).version).toBe('7.0.0');
  });
});

describe('strict validation of the cosmos option', () => {
  test.each([
    [{ cosmos: {} }, "MayflyServer.create(): option 'cosmos' needs compat: 'cosmos' (the default compat is 'mongodb', a faithful mongod)"],
    [{ compat: 'cosmos', cosmos: 7 }, "MayflyServer.create(): option 'cosmos' must be an object such as { serverVersion: '7.0', capabilities: ['EnableTtlOnCustomPath'], rules: { sortNeedsIndex: false } }, not 7"],
    [{ compat: 'cosmos', cosmos: { version: '7.0' } }, "MayflyServer.create(): unknown option 'cosmos.version'; the Cosmos DB options are serverVersion, capabilities, rules, ruPerSecond, serverSideRetry"],
    [{ compat: 'cosmos', cosmos: { serverVersion: '3.6' } }, "MayflyServer.create(): option 'cosmos.serverVersion' must be one of '4.2', '5.0', '6.0', '7.0', not \"3.6\""],
    [{ compat: 'cosmos', cosmos: { capabilities: 'EnableTtlOnCustomPath' } }, "MayflyServer.create(): option 'cosmos.capabilities' must be an array of capability names such as ['EnableTtlOnCustomPath'], not \"EnableTtlOnCustomPath\""],
    [
      { compat: 'cosmos', cosmos: { capabilities: ['EnableTTL'] } },
      "MayflyServer.create(): option 'cosmos.capabilities' has an unknown capability \"EnableTTL\"; the capabilities are AllVersionsAndDeletesChangeFeed, EnableMongo16MBDocumentSupport, EnableTtlOnCustomPath, EnableUniqueIndexReIndex",
    ],
    [{ compat: 'cosmos', cosmos: { rules: { sortNeedIndex: false } } }, expect.stringMatching(/^MayflyServer\.create\(\): option 'cosmos\.rules' has an unknown rule 'sortNeedIndex'; the rules are .*documentSizeLimit, expressionOperators, ignoreWriteConcern, .*requestTimeLimit, sortNeedsIndex, /)],
    [{ compat: 'cosmos', cosmos: { rules: { sortNeedsIndex: 'no' } } }, "MayflyServer.create(): option 'cosmos.rules.sortNeedsIndex' must be true or false, not \"no\""],
  ] as Array<[unknown, unknown]>)('%o', async (options, message) => {
    const err = await MayflyServer.create(options as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MayflyOptionError);
    expect((err as Error).message).toEqual(message);
  });
});
