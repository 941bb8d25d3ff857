/**
 * Change streams with several readers, through the official driver on the one-node replica set:
 * the events committed between two getMores come back in one batch, in commit order, with the
 * batch's postBatchResumeToken the last event's token; a waiting getMore is woken by the commit,
 * with every event of a multi-document write in the one batch; ten watchers on one collection
 * each get every event, in order, with the same resume tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeStream, ChangeStreamDocument, Document } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

/** Opens a change stream on `coll` by command; returns its cursor id. */
async function openByCommand(dbName: string, coll: string): Promise<unknown> {
  const reply = await h.client.db(dbName).command({ aggregate: coll, pipeline: [{ $changeStream: {} }], cursor: {} }, { promoteLongs: false });
  expect(reply.cursor.firstBatch).toEqual([]);
  return reply.cursor.id;
}

describe('batches of a change stream', () => {
  it('the events committed between two getMores come back in one batch, in order; its postBatchResumeToken is the last one', async () => {
    const db = h.client.db('cs_batch');
    const id = await openByCommand('cs_batch', 'b');
    const coll = db.collection('b');
    await coll.insertOne({ _id: 1 });
    await coll.updateOne({ _id: 1 }, { $set: { a: 1 } });
    await coll.insertOne({ _id: 2 });
    await coll.deleteOne({ _id: 1 });
    const more = await db.command({ getMore: id, collection: 'b', maxTimeMS: 60_000 });
    const batch = more.cursor.nextBatch as Document[];
    expect(batch.map((e) => [e.operationType, e.documentKey])).toEqual([
      ['insert', { _id: 1 }],
      ['update', { _id: 1 }],
      ['insert', { _id: 2 }],
      ['delete', { _id: 1 }],
    ]);
    const tokens = batch.map((e) => (e._id as Document)._data as string);
    expect([...tokens].sort()).toEqual(tokens);
    expect(new Set(tokens).size).toBe(4);
    expect(more.cursor.postBatchResumeToken).toEqual(batch[3]!._id);
    await db.command({ killCursors: 'b', cursors: [id] });
  });

  it('a waiting getMore is woken by the commit and gets every event of an insertMany in one batch', async () => {
    const db = h.client.db('cs_wake');
    const id = await openByCommand('cs_wake', 'w');
    // Waiting: nothing is there yet, and its time limit is far beyond the test's.
    const waiting = db.command({ getMore: id, collection: 'w', maxTimeMS: 600_000 });
    await db.collection('w').insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const answered = await waiting;
    const batch = answered.cursor.nextBatch as Document[];
    expect(batch.map((e) => e.documentKey)).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    // Each statement of the retryable insertMany commits on its own (its own time), all in the one command.
    const tokens = batch.map((e) => (e._id as Document)._data as string);
    expect([...tokens].sort()).toEqual(tokens);
    expect(answered.cursor.postBatchResumeToken).toEqual(batch[2]!._id);
    await db.command({ killCursors: 'w', cursors: [id] });
  });

  it('ten watchers on one collection each get every event, in order, with the same resume tokens', async () => {
    const coll = h.client.db('cs_ten').collection('t');
    const streams: ChangeStream[] = [];
    for (let k = 0; k < 10; k++) {
      const s = coll.watch();
      await (s as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
      streams.push(s);
    }
    const total = 60;
    const received = streams.map(async (s) => {
      const out: ChangeStreamDocument[] = [];
      while (out.length < total) out.push(await s.next());
      return out;
    });
    // Sequential writes, then a batch: events one per getMore and several per getMore alike.
    for (let i = 0; i < total / 2; i++) await coll.insertOne({ _id: i });
    await coll.insertMany(Array.from({ length: total / 2 }, (_, k) => ({ _id: total / 2 + k })));
    const all = await Promise.all(received);
    const expected = Array.from({ length: total }, (_, i) => ({ _id: i }));
    const firstTokens = all[0]!.map((e) => (e._id as Document)._data as string);
    expect([...firstTokens].sort()).toEqual(firstTokens);
    for (const events of all) {
      expect(events.map((e) => (e as Document).documentKey)).toEqual(expected);
      expect(events.map((e) => (e._id as Document)._data)).toEqual(firstTokens);
    }
    for (const s of streams) await s.close();
  });
});
