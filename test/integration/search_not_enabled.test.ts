/**
 * Atlas Search through the driver: Mayfly has no search node (mongot), so the search stages and
 * the search index commands answer 31082 SearchNotEnabled with mongod's texts, as a mongod
 * without one does (and as mongodb-memory-server users see).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, errorOf, seed, type Harness, type TestDb } from './harness.js';

const STAGES_TEXT =
  'Using $search and $vectorSearch aggregation stages requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable.For more information on how to connect, see https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.';
const INDEXES_TEXT =
  'Using Atlas Search Database Commands and the $listSearchIndexes aggregation stage requires additional configuration. Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs.';

let h: Harness;
let db: TestDb;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await seed(db, 'docs', [{ _id: 1, text: 'a' }]);
});
afterAll(async () => {
  await h.close();
});

const refusal = (e: { code?: number; codeName?: string; errmsg?: string }) => ({ code: e.code, codeName: e.codeName, errmsg: e.errmsg });

describe('search without a search node', () => {
  it.each([
    ['$search', [{ $search: { text: { query: 'a', path: 'text' } } }]],
    ['$searchMeta', [{ $searchMeta: { count: { type: 'total' } } }]],
    ['$vectorSearch', [{ $vectorSearch: { index: 'v', path: 'e', queryVector: [0.1], numCandidates: 10, limit: 1 } }]],
    ['$vectorSearch in a $lookup', [{ $lookup: { from: 'docs', pipeline: [{ $vectorSearch: {} }], as: 'x' } }]],
  ])('%s answers 31082 with mongod text', async (_label, pipeline) => {
    const err = await errorOf(() => db.collection('docs').aggregate(pipeline).toArray());
    expect(refusal(err)).toEqual({ code: 31082, codeName: 'SearchNotEnabled', errmsg: STAGES_TEXT });
  });

  it('$listSearchIndexes and the search index helpers answer the search-index text', async () => {
    const errors = await Promise.all([
      errorOf(() => db.collection('docs').listSearchIndexes().toArray()),
      errorOf(() => db.collection('docs').createSearchIndex({ name: 'default', definition: { mappings: { dynamic: true } } })),
      errorOf(() => db.collection('docs').dropSearchIndex('default')),
      errorOf(() => db.collection('docs').updateSearchIndex('default', { mappings: { dynamic: true } })),
    ]);
    expect(errors.map(refusal)).toEqual(Array(4).fill({ code: 31082, codeName: 'SearchNotEnabled', errmsg: INDEXES_TEXT }));
  });
});
