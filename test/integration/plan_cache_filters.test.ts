/**
 * The plan cache and index filter commands: planCacheSetFilter restricts the indexes a query
 * shape plans over (explain's indexFilterSet, the winning index, the hint ignored),
 * planCacheListFilters shows the filters, planCacheClearFilters removes them, planCacheClear
 * checks its arguments; every error is mongod's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { errorOf, startHarness, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  db = h.db;
});
afterAll(async () => h.close());

beforeEach(async () => {
  await db.collection('c').drop().catch(() => undefined);
  await db.collection('c').insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, a: i, b: i, c: i })));
  await db.collection('c').createIndexes([{ key: { a: 1, b: 1 } }, { key: { a: 1, c: 1 } }]);
});

const run = (cmd: Document) => db.command(cmd);

/** explain's indexFilterSet and the index of the first IXSCAN of the winning plan (null: none). */
async function planned(command: Document): Promise<{ indexFilterSet: boolean; index: string | null }> {
  const explain = await run({ explain: command, verbosity: 'queryPlanner' });
  const qp = explain.queryPlanner ?? explain.stages?.[0]?.$cursor?.queryPlanner;
  let node = qp.winningPlan;
  while (node && node.stage !== 'IXSCAN') node = node.inputStage ?? node.inputStages?.[0];
  return { indexFilterSet: qp.indexFilterSet, index: node ? node.indexName : null };
}

describe('planCacheSetFilter', () => {
  it('forces the allowed index for every query of the shape, whatever the values', async () => {
    expect(await planned({ find: 'c', filter: { a: 1 } })).toEqual({ indexFilterSet: false, index: 'a_1_b_1' });
    expect(await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ a: 1, c: 1 }] })).toEqual({ ok: 1 });
    expect(await planned({ find: 'c', filter: { a: 7 } })).toEqual({ indexFilterSet: true, index: 'a_1_c_1' });
    // The filter still returns the right documents.
    expect(await db.collection('c').find({ a: 7 }).toArray()).toEqual([{ _id: 7, a: 7, b: 7, c: 7 }]);
  });

  it('applies to count, distinct, update, delete, findAndModify and aggregate of the same shape', async () => {
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: ['a_1_c_1'] });
    const commands: Document[] = [
      { count: 'c', query: { a: 1 } },
      { distinct: 'c', key: 'a', query: { a: 1 } },
      { update: 'c', updates: [{ q: { a: 1 }, u: { $set: { x: 1 } } }] },
      { delete: 'c', deletes: [{ q: { a: 1 }, limit: 0 }] },
      { findAndModify: 'c', query: { a: 1 }, update: { $set: { x: 1 } } },
      { aggregate: 'c', pipeline: [{ $match: { a: 1 } }], cursor: {} },
    ];
    for (const command of commands) expect(await planned(command)).toEqual({ indexFilterSet: true, index: 'a_1_c_1' });
  });

  it('overrides a hint, and a filter no index satisfies is a collection scan', async () => {
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ a: 1, c: 1 }] });
    expect(await planned({ find: 'c', filter: { a: 1 }, hint: 'a_1_b_1' })).toEqual({ indexFilterSet: true, index: 'a_1_c_1' });
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ nope: 1 }] });
    expect(await planned({ find: 'c', filter: { a: 1 } })).toEqual({ indexFilterSet: true, index: null });
  });

  it('leaves other shapes alone (another field, another sort, a projection)', async () => {
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ a: 1, c: 1 }] });
    expect((await planned({ find: 'c', filter: { a: 1, b: 1 } })).indexFilterSet).toBe(false);
    expect((await planned({ find: 'c', filter: { a: 1 }, sort: { b: 1 } })).indexFilterSet).toBe(false);
    expect((await planned({ find: 'c', filter: { a: 1 }, projection: { a: 1 } })).indexFilterSet).toBe(false);
    expect((await planned({ find: 'c', filter: { a: { $gt: 1 } } })).indexFilterSet).toBe(false);
  });

  it.each([
    [{ query: { a: 1 } }, 'required field indexes missing'],
    [{ query: { a: 1 }, indexes: 'a_1' }, 'required field indexes must be an array'],
    [{ query: { a: 1 }, indexes: [] }, 'required field indexes must contain at least one index'],
    [{ query: { a: 1 }, indexes: [{}] }, 'index specification cannot be empty'],
    [{ query: { a: 1 }, indexes: [1] }, 'each item in indexes must be an object or string'],
    [{ indexes: [{ a: 1 }] }, 'required field query missing'],
    [{ query: 'a', indexes: [{ a: 1 }] }, 'required field query must be an object'],
    [{ query: {}, sort: 1, indexes: [{ a: 1 }] }, 'optional field sort must be an object'],
    [{ query: {}, projection: 'a', indexes: [{ a: 1 }] }, 'optional field projection must be an object'],
    [{ query: {}, collation: {}, indexes: [{ a: 1 }] }, 'optional field collation cannot be an empty object'],
    [{ query: { a: { $bogus: 1 } }, indexes: [{ a: 1 }] }, 'unknown operator: $bogus'],
  ])('%j answers 2 %s', async (args, message) => {
    const err = await errorOf(() => run({ planCacheSetFilter: 'c', ...args }));
    expect([err.code, err.errmsg]).toEqual([2, message]);
  });

  it('needs an existing collection (2), not a view (166), a string name (73)', async () => {
    expect(await errorOf(() => run({ planCacheSetFilter: 'missing', query: {}, indexes: [{ a: 1 }] }))).toMatchObject({ code: 2, errmsg: 'no such collection' });
    await db.createCollection('v', { viewOn: 'c', pipeline: [] });
    expect(await errorOf(() => run({ planCacheSetFilter: 'v', query: {}, indexes: [{ a: 1 }] }))).toMatchObject({ code: 166, errmsg: `Namespace ${db.databaseName}.v is a view, not a collection` });
    expect(await errorOf(() => run({ planCacheSetFilter: 5, query: {}, indexes: [{ a: 1 }] }))).toMatchObject({ code: 73, errmsg: 'collection name has invalid type int' });
    await db.collection('v').drop();
  });
});

describe('planCacheListFilters and planCacheClearFilters', () => {
  it('lists each filter once, the last set winning, and clears one shape or all', async () => {
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ a: 1, b: 1 }, { a: 1, b: 1 }, 'a_1_c_1'] });
    await run({ planCacheSetFilter: 'c', query: { b: 1 }, sort: { a: -1 }, projection: { _id: 0 }, collation: { locale: 'fr' }, indexes: [{ a: 1, b: 1 }] });
    await run({ planCacheSetFilter: 'c', query: { a: 5 }, indexes: ['a_1_b_1'] });
    expect(await run({ planCacheListFilters: 'c' })).toEqual({
      filters: [
        { query: { b: 1 }, sort: { a: -1 }, projection: { _id: 0 }, collation: { locale: 'fr' }, indexes: [{ a: 1, b: 1 }] },
        { query: { a: 5 }, sort: {}, projection: {}, indexes: ['a_1_b_1'] },
      ],
      ok: 1,
    });
    expect(await run({ planCacheClearFilters: 'c', query: { a: 99 } })).toEqual({ ok: 1 });
    expect((await run({ planCacheListFilters: 'c' })).filters).toHaveLength(1);
    expect(await run({ planCacheClearFilters: 'c' })).toEqual({ ok: 1 });
    expect(await run({ planCacheListFilters: 'c' })).toEqual({ filters: [], ok: 1 });
    expect((await planned({ find: 'c', filter: { a: 1 } })).indexFilterSet).toBe(false);
  });

  it('a dropped collection forgets its filters; a missing one lists none and clears nothing', async () => {
    await run({ planCacheSetFilter: 'c', query: { a: 1 }, indexes: [{ a: 1, c: 1 }] });
    await db.collection('c').drop();
    await db.collection('c').insertOne({ a: 1 });
    expect(await run({ planCacheListFilters: 'c' })).toEqual({ filters: [], ok: 1 });
    expect(await run({ planCacheListFilters: 'missing' })).toEqual({ filters: [], ok: 1 });
    expect(await run({ planCacheClearFilters: 'missing', query: 5 })).toEqual({ ok: 1 });
  });

  it('refuses a sort, projection or collation without a query', async () => {
    const err = await errorOf(() => run({ planCacheClearFilters: 'c', sort: { a: 1 } }));
    expect([err.code, err.errmsg]).toEqual([2, 'sort, projection, or collation provided without query']);
  });
});

describe('planCacheClear', () => {
  it('clears a shape or all, checking the arguments as mongod', async () => {
    expect(await run({ planCacheClear: 'c' })).toEqual({ ok: 1 });
    expect(await run({ planCacheClear: 'c', query: { a: 1 }, sort: { b: 1 }, projection: { a: 1 } })).toEqual({ ok: 1 });
    expect(await run({ planCacheClear: 'missing', query: 'not checked' })).toEqual({ ok: 1 });
    const err = await errorOf(() => run({ planCacheClear: 'c', projection: { a: 1 } }));
    expect([err.code, err.errmsg]).toEqual([2, 'sort, projection, or collation provided without query']);
    const bad = await errorOf(() => run({ planCacheClear: 'c', query: 1 }));
    expect([bad.code, bad.errmsg]).toEqual([2, 'required field query must be an object']);
  });
});
