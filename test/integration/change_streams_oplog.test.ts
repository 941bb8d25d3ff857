/**
 * `local.oplog.rs` on the replica-set presentation: find with a filter on `ns`/`op`/`ts`, and a
 * tailable awaitData cursor woken by each commit, entries in mongod's oplog shape.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

it('find filters the oplog; a tailable awaitData cursor sees each committed write', async () => {
  const local = h.client.db('local');
  const coll = h.db.collection('tail');
  const ns = `${h.db.databaseName}.tail`;
  await coll.insertOne({ _id: 1, a: 1 });
  await coll.updateOne({ _id: 1 }, { $set: { a: 2 } });
  const found = await local.command({ find: 'oplog.rs', filter: { ns, op: { $in: ['i', 'u'] } } }, { promoteLongs: false });
  const entries = found.cursor.firstBatch as Document[];
  expect(entries.map((e) => [e.op, e.ns, e.o, e.o2])).toEqual([
    ['i', ns, { _id: 1, a: 1 }, { _id: 1 }],
    ['u', ns, { $v: 2, diff: { u: { a: 2 } } }, { _id: 1 }],
  ]);
  expect(Object.keys(entries[0]!)).toEqual(['op', 'ns', 'ui', 'o', 'o2', 'ts', 't', 'v', 'wall']);
  const last = entries[1]!.ts;
  const tail = await local.command({ find: 'oplog.rs', filter: { ts: { $gt: last } }, tailable: true, awaitData: true }, { promoteLongs: false });
  expect(tail.cursor.firstBatch).toEqual([]);
  const waiting = local.command({ getMore: tail.cursor.id, collection: 'oplog.rs', maxTimeMS: 60_000 });
  await coll.deleteOne({ _id: 1 });
  const more = await waiting;
  expect(more.cursor.nextBatch.map((e: Document) => [e.op, e.ns, e.o])).toEqual([['d', ns, { _id: 1 }]]);
  await local.command({ killCursors: 'oplog.rs', cursors: [tail.cursor.id] });
});
