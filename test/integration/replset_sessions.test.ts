/**
 * Sessions and retryable writes on the one-node replica set, through the official driver: a
 * killed or ended session's cursors are gone (getMore 43), `$listLocalSessions` lists started
 * sessions and forgets them after 30 idle minutes on the test clock, a retried statement answers
 * its first result (`retriedStmtIds`) without writing twice, an older txnNumber answers 225, and
 * a retryable insert survives a `failCommand` closing the connection once. The standalone keeps
 * answering 20 to a txnNumber.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Binary, Long, type ClientSession, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
const admin = () => h.client.db('admin');

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', clock: 'manual', compat: 'mongodb' });
});
afterAll(async () => {
  for (const s of sessions) await s.endSession();
  await h.close();
});

const sessions: ClientSession[] = [];
/** A driver session: the driver puts its id in every command's lsid (it would replace any other). */
function newSession(): ClientSession {
  const session = h.client.startSession();
  sessions.push(session);
  return session;
}
const lsidOf = (s: ClientSession) => s.id as { id: Binary };
/**
 * txnNumbers far above the driver's own: the driver pools its sessions, and a pooled session
 * already carries the txnNumbers of the driver's retryable writes.
 */
const txn = (n: number) => Long.fromNumber(1_000_000 + n);

/** Opens a cursor of 10 documents with a first batch of 2 under `lsid`; returns its id. */
async function openCursor(coll: string, session: ClientSession): Promise<Long> {
  await h.db.collection(coll).insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i })));
  const reply = await h.db.command({ find: coll, batchSize: 2 }, { promoteLongs: false, session });
  return reply.cursor.id as Long;
}

describe('killing and ending sessions', () => {
  it('killSessions closes the cursors of the session, not of others', async () => {
    const mine = newSession();
    const other = newSession();
    const killed = await openCursor('k1', mine);
    const kept = await openCursor('k1b', other);
    expect(await admin().command({ killSessions: [lsidOf(mine)] })).toMatchObject({ ok: 1 });
    const err = await errorOf(() => h.db.command({ getMore: killed, collection: 'k1' }, { session: mine }));
    expect([err.code, err.codeName]).toEqual([43, 'CursorNotFound']);
    const more = await h.db.command({ getMore: kept, collection: 'k1b' }, { session: other });
    expect(more.cursor.nextBatch).toHaveLength(8);
  });

  it('killAllSessions [] closes every session cursor; a filter for another user closes none', async () => {
    const session = newSession();
    const id = await openCursor('k2', session);
    await admin().command({ killAllSessions: [{ user: 'someone', db: 'admin' }] });
    expect((await h.db.command({ getMore: id, collection: 'k2', batchSize: 1 }, { session })).cursor.nextBatch).toEqual([{ _id: 2 }]);
    await admin().command({ killAllSessions: [] });
    expect((await errorOf(() => h.db.command({ getMore: id, collection: 'k2' }, { session }))).code).toBe(43);
  });

  it('killAllSessionsByPattern {lsid} closes that session cursors', async () => {
    const session = newSession();
    const id = await openCursor('k3', session);
    await admin().command({ killAllSessionsByPattern: [{ lsid: lsidOf(session) }] });
    expect((await errorOf(() => h.db.command({ getMore: id, collection: 'k3' }, { session }))).code).toBe(43);
  });

  it('endSessions forgets the session and closes its cursors', async () => {
    const session = newSession();
    const id = await openCursor('k4', session);
    const lsid = lsidOf(session);
    await admin().command({ endSessions: [lsid] });
    expect((await errorOf(() => h.db.command({ getMore: id, collection: 'k4' }))).code).toBe(43);
    // No command names the session since (the aggregate runs in another, implicit one).
    const rows = await admin().aggregate([{ $listLocalSessions: {} }, { $match: { '_id.id': lsid.id } }]).toArray();
    expect(rows).toEqual([]);
  });

  it('mongod argument errors: 14 for a non-document, 40414 without id, 207 for a short UUID, 72 for a write concern', async () => {
    const cases: Array<[Document, number]> = [
      [{ killSessions: [1] }, 14],
      [{ killSessions: [{}] }, 40414],
      [{ killSessions: [{ id: new Binary(Buffer.alloc(8), 4) }] }, 207],
      [{ killSessions: [{ id: new Binary(Buffer.alloc(16), 3) }] }, 14],
      [{ killAllSessions: [{ user: 'u' }] }, 40414],
      [{ killAllSessions: [], writeConcern: { w: 1 } }, 72],
      [{ killAllSessions: [], readConcern: { level: 'majority' } }, 72],
      [{ startSession: 1, readConcern: 'local' }, 14],
      [{ startSession: 1, maxTimeMS: 1.5 }, 9],
    ];
    for (const [cmd, code] of cases) expect([cmd, (await errorOf(() => admin().command(cmd))).code]).toEqual([cmd, code]);
  });
});

describe('session expiry', () => {
  it('startSession registers the session; 30 idle minutes on the test clock expire it', async () => {
    const { id } = await admin().command({ startSession: 1 });
    const listed = async () => (await admin().aggregate([{ $listLocalSessions: {} }, { $match: { '_id.id': id.id } }]).toArray()).length;
    expect(await listed()).toBe(1);
    await admin().command({ mayflyAdvanceClock: 30 * 60 });
    expect(await listed()).toBe(1);
    await admin().command({ mayflyAdvanceClock: 1 });
    expect(await listed()).toBe(0);
  });

  it('getParameter reports localLogicalSessionTimeoutMinutes: 30', async () => {
    expect((await admin().command({ getParameter: 1, localLogicalSessionTimeoutMinutes: 1 })).localLogicalSessionTimeoutMinutes).toBe(30);
  });
});

describe('$listSessions', () => {
  it('lists the sessions on config.system.sessions, and only there (73)', async () => {
    const { id } = await admin().command({ startSession: 1 });
    const rows = await h.client.db('config').collection('system.sessions').aggregate([{ $listSessions: {} }, { $match: { '_id.id': id.id } }]).toArray();
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!)).toEqual(['_id', 'lastUse']);
    const err = await errorOf(() => h.db.collection('c').aggregate([{ $listSessions: {} }]).toArray());
    expect([err.code, err.codeName, err.errmsg]).toEqual([73, 'InvalidNamespace', '$listSessions may only be run against config.system.sessions']);
  });
});

describe('retryable writes', () => {
  it('the same txnNumber again answers the first result without writing twice', async () => {
    const session = newSession();
    const cmd = { insert: 'r1', documents: [{ _id: 1 }, { _id: 2 }], txnNumber: txn(5) };
    const first = await h.db.command(cmd, { session });
    expect([first.n, first.retriedStmtIds]).toEqual([2, undefined]);
    const again = await h.db.command(cmd, { session });
    expect([again.n, again.retriedStmtIds, again.writeErrors]).toEqual([2, [0, 1], undefined]);
    expect(await h.db.collection('r1').countDocuments()).toBe(2);
  });

  it('update and findAndModify are not applied twice', async () => {
    await h.db.collection('r2').insertOne({ _id: 1, n: 0 });
    const session = newSession();
    const update = { update: 'r2', updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], txnNumber: txn(1) };
    await h.db.command(update, { session });
    const replay = await h.db.command(update, { session });
    expect([replay.n, replay.nModified, replay.retriedStmtIds]).toEqual([1, 1, [0]]);
    const fam = { findAndModify: 'r2', query: { _id: 1 }, update: { $inc: { n: 10 } }, new: true, txnNumber: txn(2) };
    const a = await h.db.command(fam, { session });
    const b = await h.db.command(fam, { session });
    expect([a.value, b.value, b.retriedStmtId]).toEqual([{ _id: 1, n: 11 }, { _id: 1, n: 11 }, 0]);
    expect(await h.db.collection('r2').findOne({ _id: 1 })).toEqual({ _id: 1, n: 11 });
  });

  it('an older txnNumber answers 225 TransactionTooOld with mongod message', async () => {
    const session = newSession();
    await h.db.command({ insert: 'r3', documents: [{ _id: 1 }], txnNumber: txn(3) }, { session });
    const err = await errorOf(() => h.db.command({ insert: 'r3', documents: [{ _id: 2 }], txnNumber: txn(2) }, { session }));
    expect([err.code, err.codeName]).toEqual([225, 'TransactionTooOld']);
    const hex = lsidOf(session).id.toString('hex');
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    expect(err.errmsg).toBe(
      `Retryable write with txnNumber 1000002 is prohibited on session ${uuid} - E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855 because a newer retryable write with txnNumber 1000003 has already started on this session.`,
    );
  });

  it('a statement that failed runs again on retry', async () => {
    await h.db.collection('r4').insertOne({ _id: 1 });
    const session = newSession();
    const cmd = { insert: 'r4', documents: [{ _id: 2 }, { _id: 1 }], txnNumber: txn(1) };
    const first = await h.db.command(cmd, { session });
    expect([first.n, first.writeErrors?.map((e: Document) => [e.index, e.code])]).toEqual([1, [[1, 11000]]]);
    await h.db.collection('r4').deleteOne({ _id: 1 });
    const again = await h.db.command(cmd, { session });
    expect([again.n, again.retriedStmtIds, again.writeErrors]).toEqual([2, [0], undefined]);
  });

  it('the driver retries an insert once after failCommand closes the connection', async () => {
    await admin().command({ configureFailPoint: 'failCommand', mode: { times: 1 }, data: { failCommands: ['insert'], closeConnection: true } });
    await h.db.collection('r5').insertOne({ _id: 1 });
    expect(await h.db.collection('r5').find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('after a retryable writeConcernError the driver retry does not insert twice', async () => {
    await admin().command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], writeConcernError: { code: 91, errmsg: 'Replication is being shut down', errorLabels: ['RetryableWriteError'] } },
    });
    const result = await h.db.collection('r6').insertMany([{ _id: 1 }, { _id: 2 }]);
    expect(result.insertedCount).toBe(2);
    expect(await h.db.collection('r6').countDocuments()).toBe(2);
  });

  it('txnNumber on a command that is not a retryable write is 50768; with autocommit:false it starts a transaction', async () => {
    const b = await errorOf(() => h.db.command({ find: 'r7', txnNumber: txn(1) }, { session: newSession() }));
    expect([b.code, b.errmsg]).toEqual([
      50768,
      'txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and find is not a retryable write command.',
    ]);
    const c = await h.db.command({ find: 'r7', txnNumber: txn(1), startTransaction: true, autocommit: false }, { session: newSession() });
    expect([c.ok, c.cursor.firstBatch]).toEqual([1, []]);
  });
});

describe('the standalone', () => {
  it('answers 20 to a txnNumber, as mongod', async () => {
    const s = await startHarness();
    try {
      const err = await errorOf(() => s.db.command({ insert: 'c', documents: [{}], txnNumber: txn(1) }));
      expect([err.code, err.errmsg]).toEqual([20, 'Transaction numbers are only allowed on a replica set member or mongos']);
    } finally {
      await s.close();
    }
  });
});
