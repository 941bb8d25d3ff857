/**
 * The Cosmos policy end to end (TTL.md): the container × document matrix, the root `ttl` rules,
 * `_ts` as metadata, and modifications restarting the countdown. Run under both `--compat`
 * modes (the `_ts` policy works in both) on the test clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Decimal128, Double, Int32, Long } from 'mongodb';
import { startHarness, type Harness } from './harness.js';
import { advance, ids } from './ttl_helpers.js';

describe.each(['cosmos', 'mongodb'] as const)('Cosmos policy with --compat %s', (compat) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ compat, clock: 'manual' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('the container × document matrix, row by row, at the exact expiry instants', async () => {
    const containers = { none: null, minus1: -1, m600: 600 } as const;
    const docs = [
      { _id: 'absent' },
      { _id: 'invalid', ttl: 20.5 },
      { _id: 'never', ttl: -1 },
      { _id: 'n30', ttl: 30 },
      { _id: 'n6000', ttl: 6000 },
    ];
    for (const [name, ttl] of Object.entries(containers)) {
      if (ttl !== null) await h.db.collection(name).createIndex({ _ts: 1 }, { expireAfterSeconds: ttl });
      await h.db.collection(name).insertMany(docs.map((d) => ({ ...d })));
    }
    const all = ['absent', 'invalid', 'never', 'n30', 'n6000'];
    const visible = async () => ({ none: await ids(h.db, 'none'), minus1: await ids(h.db, 'minus1'), m600: await ids(h.db, 'm600') });

    expect(await visible()).toEqual({ none: all, minus1: all, m600: all });
    await advance(h.client, 29.999);
    expect(await visible()).toEqual({ none: all, minus1: all, m600: all });
    await advance(h.client, 0.001); // t = 30 s: the document ttl 30 expires where a container TTL is set
    expect(await visible()).toEqual({
      none: all,
      minus1: ['absent', 'invalid', 'never', 'n6000'],
      m600: ['absent', 'invalid', 'never', 'n6000'],
    });
    await advance(h.client, 569.999); // t = 599.999 s
    expect((await visible()).m600).toEqual(['absent', 'invalid', 'never', 'n6000']);
    await advance(h.client, 0.001); // t = 600 s: the container default applies to absent and invalid ttl
    expect(await visible()).toEqual({
      none: all,
      minus1: ['absent', 'invalid', 'never', 'n6000'],
      m600: ['never', 'n6000'],
    });
    await advance(h.client, 5400); // t = 6000 s: a document ttl longer than the container's
    expect(await visible()).toEqual({ none: all, minus1: ['absent', 'invalid', 'never'], m600: ['never'] });
    await advance(h.client, 10 * 365 * 86400); // ten years on
    expect(await visible()).toEqual({ none: all, minus1: ['absent', 'invalid', 'never'], m600: ['never'] });
  });

  test('a valid root ttl is Int32, Int64 within Int32 or an integral Double within Int32, and -1 or ≥ 1', async () => {
    const c = h.db.collection('valid_ttl');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 100 });
    await c.insertMany([
      { _id: 'int32', ttl: 20 },
      { _id: 'double', ttl: new Double(20) },
      { _id: 'int64', ttl: Long.fromNumber(20) },
      { _id: 'int64_never', ttl: Long.fromNumber(-1) },
      { _id: 'double_never', ttl: new Double(-1) },
    ]);
    await advance(h.client, 19.999);
    expect(await ids(h.db, 'valid_ttl')).toEqual(['int32', 'double', 'int64', 'int64_never', 'double_never']);
    await advance(h.client, 0.001);
    expect(await ids(h.db, 'valid_ttl')).toEqual(['int64_never', 'double_never']);
    await advance(h.client, 1000);
    expect(await ids(h.db, 'valid_ttl')).toEqual(['int64_never', 'double_never']);
  });

  test('any other ttl is stored exactly as sent, never fails an insert, and is ignored', async () => {
    const c = h.db.collection('invalid_ttl');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 100 });
    const sent = [
      { _id: 'fraction', ttl: 20.5 },
      { _id: 'int64_big', ttl: Long.fromString('2147483649') },
      { _id: 'string', ttl: '20' },
      { _id: 'zero', ttl: 0 },
      { _id: 'minus2', ttl: -2 },
      { _id: 'null', ttl: null },
      { _id: 'bool', ttl: true },
      { _id: 'decimal', ttl: Decimal128.fromString('20') },
      { _id: 'nested', meta: { ttl: 20 } },
      { _id: 'upper', TTL: 20 },
      { _id: 'double_big', ttl: 2147483648 },
    ];
    const result = await c.insertMany(sent);
    expect(result.insertedCount).toBe(sent.length);
    const stored = await c.find({}, { promoteValues: false, promoteLongs: false }).toArray();
    expect(stored.map((d) => d.ttl)).toEqual([
      new Double(20.5),
      Long.fromString('2147483649'),
      '20',
      new Int32(0),
      new Int32(-2),
      null,
      true,
      Decimal128.fromString('20'),
      undefined,
      undefined,
      new Double(2147483648),
    ]);
    expect(stored[8]!.meta).toEqual({ ttl: new Int32(20) });
    expect(stored[9]!.TTL).toEqual(new Int32(20));
    await advance(h.client, 99.999);
    expect(await c.countDocuments()).toBe(sent.length);
    await advance(h.client, 0.001);
    expect(await c.countDocuments()).toBe(0);
  });

  test('_ts is metadata: never returned; a user field called _ts is an ordinary field', async () => {
    const c = h.db.collection('ts_meta');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 50 });
    await c.insertMany([{ _id: 1, a: 1 }, { _id: 2, _ts: 'mine' }, { _id: 3, _ts: new Date(0) }]);
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 2, _ts: 'mine' }, { _id: 3, _ts: new Date(0) }]);
    expect(await c.findOne({ _ts: 'mine' })).toEqual({ _id: 2, _ts: 'mine' });
    expect(await c.countDocuments({ _ts: { $exists: true } })).toBe(2);
    const agg = await c.aggregate([{ $project: { _id: 1, hasTs: { $ne: [{ $type: '$_ts' }, 'missing'] } } }]).toArray();
    expect(agg).toEqual([{ _id: 1, hasTs: false }, { _id: 2, hasTs: true }, { _id: 3, hasTs: true }]);
    // A user _ts of 1970 does not make its document expire: expiry counts from the system time.
    await advance(h.client, 49.999);
    expect(await ids(h.db, 'ts_meta')).toEqual([1, 2, 3]);
    await advance(h.client, 0.001);
    expect(await ids(h.db, 'ts_meta')).toEqual([]);
  });

  test('every modification restarts the countdown; a no-op update does not', async () => {
    const c = h.db.collection('restart');
    await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
    const names = ['untouched', 'updateOne', 'replaceOne', 'findOneAndUpdate', 'findOneAndReplace', 'upsertExisting', 'updateMany', 'noop', 'unsetTtl'];
    await c.insertMany(names.map((n) => ({ _id: n, v: 0, ...(n === 'unsetTtl' ? { ttl: 1000 } : {}) })));
    await advance(h.client, 50);
    await c.updateOne({ _id: 'updateOne' }, { $set: { v: 1 } });
    await c.replaceOne({ _id: 'replaceOne' }, { v: 1 });
    await c.findOneAndUpdate({ _id: 'findOneAndUpdate' }, { $inc: { v: 1 } });
    await c.findOneAndReplace({ _id: 'findOneAndReplace' }, { v: 1 });
    await c.updateOne({ _id: 'upsertExisting' }, { $set: { v: 1 } }, { upsert: true });
    await c.updateMany({ _id: 'updateMany' }, { $set: { v: 1 } });
    const noop = await c.updateOne({ _id: 'noop' }, { $set: { v: 0 } });
    expect(noop.modifiedCount).toBe(0);
    await c.updateOne({ _id: 'unsetTtl' }, { $unset: { ttl: '' } });
    await advance(h.client, 10); // t = 60 s: 60 s after insert, 10 s after the modifications
    expect(await ids(h.db, 'restart')).toEqual(['updateOne', 'replaceOne', 'findOneAndUpdate', 'findOneAndReplace', 'upsertExisting', 'updateMany', 'unsetTtl']);
    await advance(h.client, 49.999); // t = 109.999 s
    expect((await ids(h.db, 'restart')).length).toBe(7);
    await advance(h.client, 0.001); // t = 110 s: 60 s after the modifications
    expect(await ids(h.db, 'restart')).toEqual([]);
  });
});
