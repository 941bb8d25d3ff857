/**
 * A mirror consumer (what Fabric mirroring does with the all versions and deletes change feed) in
 * Cosmos DB mode: with `AllVersionsAndDeletesChangeFeed`, a consumer applies the stream of a
 * collection to a second collection while inserts, updates, replacements, deletes and `_ts` TTL
 * expirations (the test clock, `mayflyAdvanceClock`, a reaper pass) happen, and ends holding
 * exactly the source's documents. Without the capability, the latest version feed shows no delete
 * and no expiry, so the same consumer (reading as the writes go) ends holding documents the source
 * no longer has.
 */
import { afterEach, expect, test } from 'vitest';
import type { Document } from 'mongodb';
import { startHarness, type Harness } from './harness.js';

/** The pipeline the mirror reads with: Cosmos DB's required $match and $project, deletes included. */
const MIRROR_PIPELINE: Document[] = [
  { $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
  { $project: { _id: 1, operationType: 1, fullDocument: 1, ns: 1, documentKey: 1, metadata: 1 } },
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Runs the workload on `source` while a consumer mirrors it; the mirror's documents and the consumer's counts. */
async function mirrorRun(capabilities: 'AllVersionsAndDeletesChangeFeed'[]): Promise<{ live: Document[]; mirrored: Document[]; counts: Record<string, number> }> {
  h = await startHarness({ compat: 'cosmos', replSet: 'globaldb', clock: 'manual', cosmos: { capabilities } });
  const admin = h.client.db('admin');
  const source = h.db.collection('source');
  const mirror = h.client.db(`${h.db.databaseName}_mirror`).collection('mirror');
  await h.db.createCollection('source');
  // Container TTL 10 s; the even documents opt out (ttl: -1).
  await source.createIndex({ _ts: 1 }, { expireAfterSeconds: 10 });
  const stream = source.watch(MIRROR_PIPELINE, { fullDocument: 'updateLookup' });
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();

  const counts: Record<string, number> = {};
  /** The consumer: applies the events to the mirror until the one of `_id` `until`. */
  const drain = async (until: string): Promise<void> => {
    for (;;) {
      const event = (await stream.next()) as Document;
      const kind = event.metadata ? `${event.metadata.operationType as string}${event.metadata.timeToLiveExpired ? ' (ttl)' : ''}` : 'change';
      counts[kind] = (counts[kind] ?? 0) + 1;
      const key = event.documentKey as Document;
      if (event.operationType === 'delete') await mirror.deleteOne(key);
      else await mirror.replaceOne(key, event.fullDocument as Document, { upsert: true });
      if (key._id === until) return;
    }
  };

  await source.insertMany(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? { _id: i, n: i, ttl: -1 } : { _id: i, n: i })));
  await source.insertOne({ _id: 'm1', ttl: -1 });
  await drain('m1');
  await admin.command({ mayflyAdvanceClock: 5 });
  // Modified at 5 s: 11, 13, 15 live until 15 s; 12 and 14 never expire.
  await source.updateMany({ _id: { $in: [11, 12, 13, 14, 15] } }, { $inc: { n: 100 } });
  await source.replaceOne({ _id: 17 }, { n: -17, ttl: -1 });
  await source.insertOne({ _id: 'm2', ttl: -1 });
  await drain('m2');
  await source.deleteMany({ _id: { $in: [0, 2] } });
  await admin.command({ mayflyAdvanceClock: 6 });
  // At 11 s: 1, 3, 5, 7, 9, 19 have expired (invisible at once); the reaper purges them.
  expect(((await admin.command({ mayflyRunTtlPass: 1 })) as Document).deleted).toBe(6);
  await source.updateOne({ _id: 4 }, { $set: { late: true } });
  await source.insertOne({ _id: 'end', ttl: -1 });
  await drain('end');
  await stream.close();
  const live = await source.find({}).sort({ _id: 1 }).toArray();
  const mirrored = await mirror.find({}).sort({ _id: 1 }).toArray();
  return { live, mirrored, counts };
}

test('with the all versions and deletes feed, the mirror ends equal to the source, TTL expirations included', async () => {
  const { live, mirrored, counts } = await mirrorRun(['AllVersionsAndDeletesChangeFeed']);
  expect(live.map((d) => d._id)).toEqual([4, 6, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 'end', 'm1', 'm2']);
  expect(mirrored).toEqual(live);
  // 23 inserts, 5 + 1 updates and 1 replacement (all 'replace' in the feed), 2 deletes, 6 expirations.
  expect(counts).toEqual({ create: 23, replace: 7, delete: 2, 'delete (ttl)': 6 });
});

test('with the latest version feed (the default), deletes and expirations never reach the mirror', async () => {
  const { live, mirrored, counts } = await mirrorRun([]);
  expect(counts).toEqual({ change: 23 + 7 });
  // The mirror still holds the 2 deleted and the 6 expired documents.
  expect(mirrored.map((d) => d._id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 'end', 'm1', 'm2']);
  expect(mirrored.filter((d) => live.some((l) => l._id === d._id))).toEqual(live);
});
