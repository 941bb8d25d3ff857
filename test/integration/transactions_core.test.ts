/**
 * Transactions on the one-node replica set, through the official driver: `withTransaction`
 * commits, an abort leaves no trace, a transaction sees its own writes and its snapshot (not
 * another client's later or uncommitted writes), two transactions writing one document conflict
 * (112 with TransientTransactionError), the lifetime limit on the test clock, operations refused
 * inside a transaction, and the standalone refusing transactions (20).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long, MongoServerError, type ClientSession } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', clock: 'manual', compat: 'mongodb' });
});
afterAll(async () => {
  for (const s of sessions) await s.endSession();
  await h.close();
});

const sessions: ClientSession[] = [];
function newSession(): ClientSession {
  const session = h.client.startSession();
  sessions.push(session);
  return session;
}

describe('commit and abort', () => {
  it('withTransaction commits both writes together', async () => {
    const coll = h.db.collection('t_commit');
    await coll.insertOne({ _id: 1, n: 0 });
    const session = newSession();
    await session.withTransaction(async () => {
      await coll.insertOne({ _id: 2, n: 1 }, { session });
      await coll.updateOne({ _id: 1 }, { $inc: { n: 5 } }, { session });
      // Not visible outside the transaction before the commit.
      expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, n: 0 }]);
    });
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 5 },
      { _id: 2, n: 1 },
    ]);
  });

  it('abort rolls back inserts, updates and deletes', async () => {
    const coll = h.db.collection('t_abort');
    await coll.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
    const session = newSession();
    session.startTransaction();
    await coll.insertOne({ _id: 3 }, { session });
    await coll.updateOne({ _id: 1 }, { $set: { n: 9 } }, { session });
    await coll.deleteOne({ _id: 2 }, { session });
    expect(await coll.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 9 },
      { _id: 3 },
    ]);
    await session.abortTransaction();
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  it('a second commit answers ok; abort after commit is 256; a statement after abort is 251', async () => {
    const coll = h.db.collection('t_states');
    const session = newSession();
    session.startTransaction();
    await coll.insertOne({ _id: 1 }, { session });
    await session.commitTransaction();
    const txnNumber = Long.fromNumber(session.serverSession!.txnNumber);
    const again = await h.client.db('admin').command({ commitTransaction: 1, txnNumber, autocommit: false }, { session });
    expect(again.ok).toBe(1);
    const err = await errorOf(() => h.client.db('admin').command({ abortTransaction: 1, txnNumber, autocommit: false }, { session }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([256, 'TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`]);

    const other = newSession();
    other.startTransaction();
    await coll.insertOne({ _id: 2 }, { session: other });
    await other.abortTransaction();
    const n = Long.fromNumber(other.serverSession!.txnNumber);
    const late = await errorOf(() => h.db.command({ insert: 't_states', documents: [{ _id: 3 }], txnNumber: n, autocommit: false }, { session: other }));
    expect([late.code, late.codeName, late.errmsg]).toEqual([251, 'NoSuchTransaction', `Transaction with { txnNumber: ${n} } has been aborted.`]);
    expect(late.errorLabels).toEqual(['TransientTransactionError']);
    expect(await coll.find({}).toArray()).toEqual([{ _id: 1 }]);
  });
});

describe('a failed statement', () => {
  it('a duplicate key aborts the transaction; the server keeps answering', async () => {
    const coll = h.db.collection('t_dup');
    await coll.insertOne({ _id: 1 });
    const session = newSession();
    session.startTransaction();
    await coll.insertOne({ _id: 2 }, { session });
    const err = await errorOf(() => coll.insertOne({ _id: 1 }, { session }));
    expect(err.code).toBe(11000);
    // The transaction is aborted already: the driver's abortTransaction swallows the 251.
    await session.abortTransaction();
    expect(await coll.find({}).toArray()).toEqual([{ _id: 1 }]);
  });
});

describe('isolation', () => {
  it('a transaction reads its snapshot and its own writes, not later commits of others', async () => {
    const coll = h.db.collection('t_snapshot');
    await coll.insertMany([{ _id: 1, v: 'a' }]);
    const session = newSession();
    session.startTransaction();
    expect(await coll.findOne({ _id: 1 }, { session })).toEqual({ _id: 1, v: 'a' });
    await coll.updateOne({ _id: 1 }, { $set: { v: 'outside' } }).catch(() => undefined);
    await coll.insertOne({ _id: 2, v: 'b' });
    await coll.insertOne({ _id: 10, mine: true }, { session });
    expect(await coll.find({}, { session }).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'a' },
      { _id: 10, mine: true },
    ]);
    await session.commitTransaction();
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'outside' },
      { _id: 2, v: 'b' },
      { _id: 10, mine: true },
    ]);
  });

  it('two transactions writing one document: the second gets 112 WriteConflict with TransientTransactionError', async () => {
    const coll = h.db.collection('t_conflict');
    await coll.insertOne({ _id: 1, x: 0 });
    const first = newSession();
    const second = newSession();
    first.startTransaction();
    await coll.updateOne({ _id: 1 }, { $set: { x: 1 } }, { session: first });
    second.startTransaction();
    const err = await errorOf(() => coll.updateOne({ _id: 1 }, { $set: { x: 2 } }, { session: second }));
    expect([err.code, err.codeName]).toEqual([112, 'WriteConflict']);
    expect(err.errorLabels).toEqual(['TransientTransactionError']);
    await first.commitTransaction();
    await second.abortTransaction().catch(() => undefined);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, x: 1 });
  });

  it('a write outside any transaction to a document a transaction wrote is 112, the transaction commits', async () => {
    const coll = h.db.collection('t_outside');
    await coll.insertOne({ _id: 1, x: 0 });
    const session = newSession();
    session.startTransaction();
    await coll.updateOne({ _id: 1 }, { $set: { x: 1 } }, { session });
    const err = await errorOf(() => coll.updateOne({ _id: 1 }, { $set: { x: 2 } }));
    expect(err.code).toBe(112);
    await session.commitTransaction();
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, x: 1 });
  });
});

describe('limits and refused operations', () => {
  it('a transaction older than transactionLifetimeLimitSeconds is aborted (test clock)', async () => {
    const admin = h.client.db('admin');
    await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 5 });
    const coll = h.db.collection('t_lifetime');
    const session = newSession();
    session.startTransaction();
    await coll.insertOne({ _id: 1 }, { session });
    await admin.command({ mayflyAdvanceClock: 6000 });
    const err = await errorOf(() => coll.insertOne({ _id: 2 }, { session }));
    expect([err.code, err.codeName]).toEqual([251, 'NoSuchTransaction']);
    await session.abortTransaction().catch(() => undefined);
    await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 60 });
    expect(await coll.countDocuments({})).toBe(0);
  });

  it('count, writeConcern on a statement and readConcern after the first are refused', async () => {
    const session = newSession();
    session.startTransaction();
    await h.db.collection('t_refused').insertOne({ _id: 1 }, { session });
    const txnNumber = Long.fromNumber(session.serverSession!.txnNumber);
    const count = await errorOf(() => h.db.command({ count: 't_refused', txnNumber, autocommit: false }, { session }));
    expect([count.code, count.errmsg]).toEqual([263, "Cannot run 'count' in a multi-document transaction."]);
    await session.abortTransaction().catch(() => undefined);
    const s2 = newSession();
    s2.startTransaction();
    await h.db.collection('t_refused').findOne({}, { session: s2 });
    const n = Long.fromNumber(s2.serverSession!.txnNumber);
    const wc = await errorOf(() => h.db.command({ find: 't_refused', txnNumber: n, autocommit: false, writeConcern: { w: 1 } }, { session: s2 }));
    expect([wc.code, wc.errmsg]).toEqual([72, 'writeConcern is not allowed within a multi-statement transaction']);
    await s2.abortTransaction().catch(() => undefined);
  });
});

describe('standalone', () => {
  it('refuses a transaction with 20', async () => {
    const standalone = await startHarness({ compat: 'mongodb' });
    try {
      const err = await errorOf(() =>
        standalone.db.command({ find: 'x', txnNumber: Long.fromNumber(1), autocommit: false, startTransaction: true }, { session: standalone.client.startSession() }),
      );
      expect([err.code, err.codeName]).toEqual([20, 'IllegalOperation']);
    } finally {
      await standalone.close();
    }
  });
  it('driver errors are MongoServerErrors', () => {
    expect(new MongoServerError({ ok: 0, errmsg: 'x', code: 1 }).code).toBe(1);
  });
});
