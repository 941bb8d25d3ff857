/**
 * What Mayfly does not do yet, as the README's compatibility table says: each is refused with
 * an error naming it (238 NotImplemented; 20 IllegalOperation for transactions, as a standalone
 * mongod), never a silent ok.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Long, UUID, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.db.collection('c').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
});
afterAll(() => h.close());

async function refusal(command: Document, db = h.db): Promise<[number | undefined, string | undefined, string | undefined]> {
  const err = await errorOf(() => db.command(command));
  return [err.code, err.codeName, err.errmsg];
}

describe('answered with 238 NotImplemented', () => {
  test.each([
    ['mapReduce', { mapReduce: 'c', map: 'function () {}', reduce: 'function () {}', out: { inline: 1 } }, null, "The 'mapReduce' command is not implemented by Mayfly yet"],
    ['currentOp', { currentOp: 1 }, 'admin', "The 'currentOp' command is not implemented by Mayfly yet"],
  ])('%s', async (_what, command, db, errmsg) => {
    expect(await refusal(command, db === null ? h.db : h.client.db(db))).toEqual([238, 'NotImplemented', errmsg]);
  });

  test.each([
    ['$accumulator', [{ $group: { _id: null, s: { $accumulator: '$a' } } }], 'The $accumulator accumulator is not supported by Mayfly yet'],
  ])('aggregation: %s', async (_what, pipeline, errmsg) => {
    expect(await refusal({ aggregate: 'c', pipeline, cursor: {} })).toEqual([238, 'NotImplemented', errmsg]);
  });
});

test('transactions: 20 IllegalOperation, as on a standalone mongod', async () => {
  const lsid = { id: new UUID() };
  expect(await refusal({ find: 'c', lsid, txnNumber: Long.fromNumber(1), autocommit: false, startTransaction: true })).toEqual([
    20,
    'IllegalOperation',
    'Transaction numbers are only allowed on a replica set member or mongos',
  ]);
});
