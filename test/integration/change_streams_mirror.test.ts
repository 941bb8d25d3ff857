/**
 * A consumer mirrors a collection from its change stream while inserts, updates, replacements,
 * deletes and TTL expirations (the test clock, `mayflyAdvanceClock`, a reaper pass) happen: the
 * TTL engine's deletions are `delete` events, so the mirror ends holding exactly the live
 * documents of the source.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ replSet: 'rs0', clock: 'manual', compat: 'mongodb' });
});
afterAll(async () => {
  await h.close();
});

it('the mirror of a stream ends equal to the source, TTL expirations included', async () => {
  const admin = h.client.db('admin');
  const source = h.db.collection('source');
  const mirror = h.client.db(`${h.db.databaseName}_mirror`).collection('mirror');
  await source.createIndex({ at: 1 }, { expireAfterSeconds: 10 });
  const now = ((await admin.command({ mayflyClock: 1 })) as Document).now as Date;
  const stream = h.db.watch([], { fullDocument: 'updateLookup' });
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();

  await source.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: i, n: i, at: i % 3 === 0 ? new Date(now.getTime() - 60_000) : now })));
  await source.updateMany({ n: { $gte: 10 } }, { $inc: { n: 100 } });
  await source.replaceOne({ _id: 4 }, { n: -4, at: now });
  await source.deleteMany({ _id: { $in: [1, 2] } });
  await admin.command({ mayflyAdvanceClock: 1 });
  await admin.command({ mayflyRunTtlPass: 1 });
  await source.insertOne({ _id: 100, n: 100 });
  await h.db.collection('sentinel').insertOne({ _id: 'end' });

  const causes: Record<string, number> = {};
  for (;;) {
    const event = (await stream.next()) as Document;
    if (event.ns.coll === 'sentinel') break;
    causes[event.operationType] = (causes[event.operationType] ?? 0) + 1;
    const key = event.documentKey as Document;
    if (event.operationType === 'insert' || event.operationType === 'replace') await mirror.replaceOne(key, event.fullDocument, { upsert: true });
    else if (event.operationType === 'update') {
      if (event.fullDocument === null) await mirror.deleteOne(key);
      else await mirror.replaceOne(key, event.fullDocument, { upsert: true });
    } else if (event.operationType === 'delete') await mirror.deleteOne(key);
  }
  await stream.close();
  const live = await source.find({}).sort({ _id: 1 }).toArray();
  // 0, 3, 6, ... expired (but 4 was replaced with a fresh `at`); 1 and 2 deleted.
  expect(live.map((d) => d._id)).toEqual([4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 100]);
  expect(await mirror.find({}).sort({ _id: 1 }).toArray()).toEqual(live);
  // The 7 expired documents (0, 3, 6, 9, 12, 15, 18) are delete events, besides the 2 deleted.
  expect(causes).toEqual({ insert: 21, update: 10, replace: 1, delete: 2 + 7 });
});
