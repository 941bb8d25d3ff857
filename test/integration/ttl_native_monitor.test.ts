/**
 * What the native TTL monitor deletes (`--compat mongodb`, ttl-reference.md §2.5): Dates at or
 * before now − expireAfterSeconds (the earliest array element governing), never non-Dates,
 * missing or null; partial filters respected; hidden TTL indexes still deleting; special indexes
 * skipped and counted; documents visible until a pass deletes them; rescheduling on writes,
 * collMod and index drops; the per-index delete target splitting a pass into sub-passes.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Long, ObjectId, Timestamp, type Collection } from 'mongodb';
import { startHarness, type Harness, type TestDocument } from './harness.js';
import { advance, ids, runPass, ttlMetrics } from './ttl_helpers.js';

describe('the native TTL monitor', () => {
  let h: Harness;
  let now: number;
  let c: Collection<TestDocument>;
  const at = (offsetSeconds: number) => new Date(now + offsetSeconds * 1000);
  beforeEach(async () => {
    h = await startHarness({ compat: 'mongodb', clock: 'manual' });
    now = (await h.client.db('admin').command({ mayflyClock: 1 })).nowMillis as number;
    c = h.db.collection('n');
  });
  afterEach(async () => {
    await h.close();
  });

  test('deletes Dates at or before now − expireAfterSeconds; they stay visible until the pass', async () => {
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 60 });
    await c.insertMany([
      { _id: 'old', t: at(-3600) },
      { _id: 'boundary', t: at(-60) },
      { _id: 'just_after', t: at(-59.999) },
      { _id: 'future', t: at(3600) },
      { _id: 'before_1970', t: new Date(-86_400_000) },
    ]);
    expect(await ids(h.db, 'n')).toEqual(['old', 'boundary', 'just_after', 'future', 'before_1970']);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(3), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual(['just_after', 'future']);
    await advance(h.client, 0.001);
    expect(await ids(h.db, 'n')).toEqual(['just_after', 'future']); // MongoDB: expired but visible
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual(['future']);
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(4),
      invalidTTLIndexSkips: Long.fromNumber(0),
      passes: Long.fromNumber(2),
      subPasses: Long.fromNumber(2),
    });
  });

  test('never deletes non-Dates, missing or null; the earliest Date of an array governs', async () => {
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 0 });
    await c.insertMany([
      { _id: 'string', t: '2000-01-01' },
      { _id: 'number', t: 0 },
      { _id: 'timestamp', t: new Timestamp({ t: 1, i: 1 }) },
      { _id: 'objectId', t: new ObjectId('000000000000000000000000') },
      { _id: 'null', t: null },
      { _id: 'missing' },
      { _id: 'array_one_past', t: [at(3600), 'x', at(-1)] },
      { _id: 'array_all_future', t: [at(3600), at(7200)] },
      { _id: 'nested_array', t: [[at(-3600)]] },
      { _id: 'subdocument', t: { d: at(-3600) } },
    ]);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual(['string', 'number', 'timestamp', 'objectId', 'null', 'missing', 'array_all_future', 'nested_array', 'subdocument']);
    await advance(h.client, 10 * 365 * 86400);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(1), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual(['string', 'number', 'timestamp', 'objectId', 'null', 'missing', 'nested_array', 'subdocument']);
  });

  test('a dotted path through an array of subdocuments', async () => {
    await c.createIndex({ 'events.at': 1 }, { expireAfterSeconds: 10 });
    await c.insertMany([
      { _id: 'one_old', events: [{ at: at(3600) }, { at: at(-3600) }] },
      { _id: 'all_new', events: [{ at: at(3600) }] },
    ]);
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual(['all_new']);
  });

  test('respects a partial filter, deletes through a hidden TTL index, sparse is harmless', async () => {
    await c.createIndex({ p: 1 }, { expireAfterSeconds: 0, partialFilterExpression: { kind: 'tmp' } });
    const hidden = h.db.collection('hidden');
    await hidden.createIndex({ t: 1 }, { expireAfterSeconds: 0, hidden: true, sparse: true });
    await c.insertMany([
      { _id: 'tmp_old', kind: 'tmp', p: at(-10) },
      { _id: 'keep_old', kind: 'keep', p: at(-10) },
    ]);
    await hidden.insertMany([{ _id: 'old', t: at(-10) }, { _id: 'no_field' }]);
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(2), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual(['keep_old']);
    expect(await ids(h.db, 'hidden')).toEqual(['no_field']);
    // A document updated into the partial filter becomes deletable.
    await c.updateOne({ _id: 'keep_old' }, { $set: { kind: 'tmp' } });
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual([]);
  });

  test('special (non-B-tree) TTL indexes never delete and count as invalidTTLIndexSkips', async () => {
    await c.createIndex({ t: 'hashed' }, { expireAfterSeconds: 0 });
    await c.insertOne({ _id: 1, t: at(-3600) });
    await runPass(h.client);
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual([1]);
    expect(await ttlMetrics(h.client)).toEqual({
      deletedDocuments: Long.fromNumber(0),
      invalidTTLIndexSkips: Long.fromNumber(2),
      passes: Long.fromNumber(2),
      subPasses: Long.fromNumber(2),
    });
  });

  test('writes, collMod and dropIndex reschedule at once', async () => {
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 3600 });
    await c.createIndex({ u: 1 });
    await c.insertMany([
      { _id: 'moved_later', t: at(-7200) },
      { _id: 'moved_earlier', t: at(0) },
      { _id: 'recent', t: at(-100) },
      { _id: 'by_u', u: at(-100) },
    ]);
    await c.updateOne({ _id: 'moved_later' }, { $set: { t: at(0) } });
    await c.updateOne({ _id: 'moved_earlier' }, { $set: { t: at(-7200) } });
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual(['moved_later', 'recent', 'by_u']);
    expect(await h.db.command({ collMod: 'n', index: { keyPattern: { t: 1 }, expireAfterSeconds: 50 } })).toEqual({
      expireAfterSeconds_old: 3600,
      expireAfterSeconds_new: 50,
      ok: 1,
    });
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual(['moved_later', 'by_u']);
    await h.db.command({ collMod: 'n', index: { name: 'u_1', expireAfterSeconds: 60 } });
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual(['moved_later']);
    await c.dropIndex('t_1');
    await advance(h.client, 86400);
    await runPass(h.client);
    expect(await ids(h.db, 'n')).toEqual(['moved_later']);
  });

  test('ttlIndexDeleteTargetDocs bounds each visit; ttlMonitorSubPassTargetSecs 0 makes each round a sub-pass', async () => {
    const admin = h.client.db('admin');
    await admin.command({ setParameter: 1, ttlIndexDeleteTargetDocs: 10 });
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 0 });
    await c.insertMany(Array.from({ length: 25 }, (_, i) => ({ _id: i, t: at(-1) })));
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(25), subPasses: Long.fromNumber(1), ok: 1 });
    await admin.command({ setParameter: 1, ttlMonitorSubPassTargetSecs: 0 });
    await c.insertMany(Array.from({ length: 25 }, (_, i) => ({ _id: i, t: at(-1) })));
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(25), subPasses: Long.fromNumber(3), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual([]);
  });

  test('dropping the collection forgets its schedule', async () => {
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 0 });
    await c.insertOne({ _id: 1, t: at(-1) });
    await c.drop();
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), ok: 1 });
    await c.insertOne({ _id: 2, t: at(-1) });
    expect(await runPass(h.client)).toEqual({ deleted: Long.fromNumber(0), subPasses: Long.fromNumber(1), ok: 1 });
    expect(await ids(h.db, 'n')).toEqual([2]);
  });
});
