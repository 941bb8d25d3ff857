/**
 * Cosmos DB mode's transaction limits (rule `transactionLimits`): a transaction works on one
 * collection and lives 5 seconds (server clock); past either, the statement answers 2 "Transaction
 * isn't active" and the transaction is gone. Switched off, or in mongodb mode, mongod's rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(rules: Record<string, boolean> = {}): Promise<Harness> {
  h = await startHarness({ compat: 'cosmos', replSet: 'rs0', clock: 'manual', cosmos: { rules } });
  await h.db.collection('a').insertOne({ _id: 0 });
  await h.db.collection('b').insertOne({ _id: 0 });
  return h;
}

describe('Cosmos DB transaction limits', () => {
  it('refuse a second collection in one transaction, and abort it', async () => {
    const { client, db } = await start();
    const session = client.startSession();
    session.startTransaction();
    await db.collection('a').insertOne({ _id: 1 }, { session });
    const err = await errorOf(() => db.collection('b').insertOne({ _id: 1 }, { session }));
    expect([err.code, err.errmsg]).toEqual([2, `Transaction isn't active: a transaction on Azure Cosmos DB works on one collection; it already touched ${db.databaseName}.a, not ${db.databaseName}.b`]);
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
    expect(await db.collection('a').countDocuments()).toBe(1);
  });

  it('refuse a statement past 5 seconds', async () => {
    const { client, db, server } = await start();
    const session = client.startSession();
    session.startTransaction();
    await db.collection('a').insertOne({ _id: 1 }, { session });
    server.clock.advance(5_001);
    const err = await errorOf(() => db.collection('a').insertOne({ _id: 2 }, { session }));
    expect([err.code, err.errmsg]).toEqual([2, "Transaction isn't active"]);
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
    expect(await db.collection('a').countDocuments()).toBe(1);
  });

  it('switched off: two collections commit together, as on mongod', async () => {
    const { client, db } = await start({ transactionLimits: false });
    const session = client.startSession();
    await session.withTransaction(async () => {
      await db.collection('a').insertOne({ _id: 1 }, { session });
      await db.collection('b').insertOne({ _id: 1 }, { session });
    });
    await session.endSession();
    expect([await db.collection('a').countDocuments(), await db.collection('b').countDocuments()]).toEqual([2, 2]);
  });
});
