/**
 * `$$NOW` is one instant per command, as mongod sets it once per operation context: every
 * statement of an `update` and every operation of a `bulkWrite` reads the same value, even when
 * the clock moves between statements. The server's clock is made to move 1 ms on every read, so
 * a statement that read the clock for itself would see another instant.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { MayflyServer } from '../../src/index.js';

let server: MayflyServer;
let client: MongoClient;
let coll: Collection<Document & { _id: number }>;

beforeAll(async () => {
  server = await MayflyServer.create({ compat: 'mongodb', clock: 'manual' });
  // A clock that moves 1 ms on every read (without the listeners `advance` notifies).
  let ms = server.clock.now();
  server.clock.now = () => ms++;
  client = await MongoClient.connect(server.getUri());
  coll = client.db('nowtest').collection('c');
});

afterAll(async () => {
  await client.close();
  await server.stop();
});

beforeEach(async () => {
  await coll.deleteMany({});
  await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }, { _id: 4 }]);
});

/** The distinct values of `t`, in _id order of first appearance. */
async function instants(): Promise<number[]> {
  const docs = await coll.find().sort({ _id: 1 }).toArray();
  return [...new Set(docs.map((d) => (d.t as Date).getTime()))];
}

describe('$$NOW within one command', () => {
  it('is the same in every statement of an update', async () => {
    const before = server.clock.now();
    const reply = await client.db('nowtest').command({
      update: 'c',
      updates: [
        { q: { _id: { $lte: 2 } }, u: [{ $set: { t: '$$NOW' } }], multi: true },
        { q: { _id: { $gt: 2 } }, u: [{ $set: { t: '$$NOW' } }], multi: true },
      ],
    });
    expect(reply).toEqual({ n: 4, nModified: 4, ok: 1 });
    const seen = await instants();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(before);
  });

  it('is the same in every operation of a bulkWrite', async () => {
    const before = server.clock.now();
    const reply = await client.db('admin').command({
      bulkWrite: 1,
      ops: [
        { update: 0, filter: { _id: { $lte: 2 } }, updateMods: [{ $set: { t: '$$NOW' } }], multi: true },
        { update: 0, filter: { _id: { $gt: 2 } }, updateMods: [{ $set: { t: '$$NOW' } }], multi: true },
      ],
      nsInfo: [{ ns: 'nowtest.c' }],
    });
    expect({ ok: reply.ok, nErrors: reply.nErrors, nMatched: reply.nMatched, nModified: reply.nModified }).toEqual({ ok: 1, nErrors: 0, nMatched: 4, nModified: 4 });
    const seen = await instants();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(before);
  });
});
