/**
 * Query settings: setQuerySettings keys settings by the query shape of a representative query
 * (or its hash), merges them into what is set, and refuses what mongod refuses; the
 * `$querySettings` stage lists them; `reject: true` fails the queries of that shape (and only
 * those) with QueryRejectedBySettings while explain still describes them; removeQuerySettings
 * removes them. Explain's queryShapeHash is the same hash.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  db = h.db;
  await db.collection('c').insertMany([{ _id: 1, x: 1, y: 1 }, { _id: 2, x: 2, y: 2 }]);
});
afterAll(async () => h.close());

const admin = () => h.client.db('admin');
const query = (filter: Document): Document => ({ find: 'c', filter, $db: db.databaseName });
const listed = async (extra: Document = {}): Promise<Document[]> =>
  (await admin().command({ aggregate: 1, pipeline: [{ $querySettings: extra }], cursor: {} })).cursor.firstBatch;

afterEach(async () => {
  for (const config of await listed()) await admin().command({ removeQuerySettings: config.queryShapeHash });
});

describe('setQuerySettings and $querySettings', () => {
  it('sets, lists, merges and removes the settings of a shape', async () => {
    expect(await listed()).toEqual([]);
    const set = await admin().command({ setQuerySettings: query({ x: 1 }), settings: { queryFramework: 'classic', comment: 'c1' } });
    expect(set.queryShapeHash).toMatch(/^[0-9A-F]{64}$/);
    expect(set.settings).toEqual({ queryFramework: 'classic', comment: 'c1' });
    expect(set.representativeQuery).toEqual(query({ x: 1 }));
    // Another value of the same shape names the same configuration: the settings merge.
    const merged = await admin().command({ setQuerySettings: query({ x: 5 }), settings: { reject: true } });
    expect(merged.queryShapeHash).toBe(set.queryShapeHash);
    expect(merged.settings).toEqual({ queryFramework: 'classic', reject: true, comment: 'c1' });
    expect(await listed()).toEqual([{ queryShapeHash: set.queryShapeHash, settings: merged.settings, representativeQuery: query({ x: 5 }) }]);
    const [withShape] = await listed({ showDebugQueryShape: true });
    expect(withShape!.debugQueryShape).toEqual({ cmdNs: { db: db.databaseName, coll: 'c' }, command: 'find', filter: { x: { $eq: '?number' } } });
    expect(await admin().command({ removeQuerySettings: query({ x: 9 }) })).toEqual({ ok: 1 });
    expect(await listed()).toEqual([]);
  });

  it('rejects the queries of a shape with reject: true, explain excepted; the hash is explain\'s queryShapeHash', async () => {
    const { queryShapeHash } = await admin().command({ setQuerySettings: query({ x: 1 }), settings: { reject: true } });
    const err = await errorOf(() => db.command({ find: 'c', filter: { x: 2 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([411, 'QueryRejectedBySettings', 'Query rejected by admin query settings']);
    expect((await db.command({ find: 'c', filter: { y: 2 } })).cursor.firstBatch).toEqual([{ _id: 2, x: 2, y: 2 }]);
    const explain = await db.command({ explain: { find: 'c', filter: { x: 2 } }, verbosity: 'queryPlanner' });
    expect(explain.queryShapeHash).toBe(queryShapeHash);
  });

  it('answers mongod\'s errors', async () => {
    const codes = async (cmd: Document) => (await errorOf(() => admin().command(cmd))).code;
    expect(await codes({ setQuerySettings: query({ x: 1 }), settings: {} })).toBe(8727502);
    expect(await codes({ setQuerySettings: query({ x: 1 }), settings: { reject: false } })).toBe(7746604);
    expect(await codes({ setQuerySettings: query({ x: 1 }) })).toBe(40414);
    expect(await codes({ setQuerySettings: query({ _id: 1 }), settings: { reject: true } })).toBe(7746606);
    expect(await codes({ setQuerySettings: { find: 'system.users', filter: {}, $db: 'admin' }, settings: { reject: true } })).toBe(8584900);
    expect(await codes({ setQuerySettings: { update: 'c', $db: db.databaseName }, settings: { reject: true } })).toBe(7746402);
    expect(await codes({ setQuerySettings: 'ABCD', settings: { reject: true } })).toBe(16);
    expect(await codes({ setQuerySettings: 'Z'.repeat(64), settings: { reject: true } })).toBe(2);
    expect(await codes({ setQuerySettings: query({ x: 1 }), settings: { indexHints: [{ ns: { coll: 'c' }, allowedIndexes: ['_id_'] }] } })).toBe(8727500);
    expect(await codes({ setQuerySettings: query({ x: 1 }), settings: { queryFramework: 'other' } })).toBe(2);
    expect(await codes({ removeQuerySettings: query({ x: 1 }), settings: {} })).toBe(40415);
    const stage = async (spec: unknown) => (await errorOf(() => admin().command({ aggregate: 1, pipeline: [{ $querySettings: spec }], cursor: {} }))).code;
    expect(await stage(1)).toBe(7746800);
    expect(await stage({ showDebugQueryShape: 1 })).toBe(14);
    expect(await stage({ other: true })).toBe(40415);
    expect((await errorOf(() => db.command({ aggregate: 'c', pipeline: [{ $querySettings: {} }], cursor: {} }))).code).toBe(73);
  });
});

describe('explain queryShapeHash', () => {
  const hash = async (command: Document): Promise<string> => (await db.command({ explain: command, verbosity: 'queryPlanner' })).queryShapeHash;
  it('is equal for queries that differ in values only, and differs with the structure', async () => {
    expect(await hash({ find: 'c', filter: { x: 1 } })).toBe(await hash({ find: 'c', filter: { x: { $eq: 7 } } }));
    expect(await hash({ find: 'c', filter: { x: { $in: [1] } } })).toBe(await hash({ find: 'c', filter: { x: { $in: [1, 2, 3] } } }));
    expect(await hash({ find: 'c', filter: { x: 1, y: 2 } })).not.toBe(await hash({ find: 'c', filter: { y: 2, x: 1 } }));
    expect(await hash({ aggregate: 'c', pipeline: [{ $match: { x: 1 } }], cursor: {} })).not.toBe(await hash({ aggregate: 'c', pipeline: [{ $match: { x: 1 } }, { $limit: 1 }], cursor: {} }));
  });
});
