/**
 * `$group` as the pipeline's first stage reads the scan's records itself and, when its `_id` and
 * arguments are plain top-level field paths or constants, reads those fields straight from the
 * stored bytes (stages/group.ts `directRead`). Its results must be exactly the general path's:
 * the same pipeline behind a stage that keeps `$group` from being first (an `$addFields` of an
 * unused field) is evaluated on decoded documents. Exact BSON types are compared (promoteValues
 * off), over inputs where types, overflow, missing fields and key equality are tricky.
 */
import { EJSON } from 'bson';
import { Decimal128, Double, Int32, Long, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const RAW = { promoteValues: false, promoteLongs: false } as const;

/** Every kind of value a group key or an accumulated field can meet. */
const VALUES: unknown[] = [
  new Int32(1), new Double(1), Long.fromNumber(1), Decimal128.fromString('1.0'),
  new Int32(2147483647), new Int32(2147483647), Long.fromString('9223372036854775807'),
  new Double(NaN), new Double(-0), new Double(2.5), Decimal128.fromString('NaN'),
  null, 'a', 'A', 'é', [1, 2], [], { x: 1 }, { x: new Double(1) }, true, false, new Date(0),
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const docs: Document[] = [];
  let id = 0;
  for (const k of VALUES) {
    for (const v of VALUES) docs.push({ _id: id++, k, v, 'ü': v, w: new Int32(id) });
    docs.push({ _id: id++, k }); // v missing
  }
  docs.push({ _id: id++, v: new Int32(7) }); // k missing: groups with null
  await h.db.collection('g').insertMany(docs);
});
afterAll(async () => {
  await h.close();
});

/** The documents `pipeline` answers, each as canonical extended JSON, sorted (group order is unspecified). */
async function run(pipeline: Document[], options: Document = {}): Promise<string[]> {
  const out = await h.db.collection('g').aggregate(pipeline, { ...RAW, ...options }).toArray();
  return out.map((d) => EJSON.stringify(d, { relaxed: false })).sort();
}

/** `group` run first (the direct read) and behind an unused `$addFields` (the general path). */
async function both(group: Document, options: Document = {}, before: Document[] = []): Promise<{ direct: string[]; general: string[] }> {
  const direct = await run([...before, { $group: group }], options);
  const general = await run([...before, { $addFields: { unused_: 0 } }, { $group: group }], options);
  return { direct, general };
}

describe('$group read straight from the stored bytes equals the general path', () => {
  test.each([
    ['$sum, $avg, $min, $max by a field', { _id: '$k', s: { $sum: '$v' }, a: { $avg: '$v' }, mn: { $min: '$v' }, mx: { $max: '$v' } }],
    ['$first, $last, $push, $addToSet', { _id: '$k', f: { $first: '$v' }, l: { $last: '$v' }, p: { $push: '$w' }, u: { $addToSet: '$k' } }],
    ['$count and constant arguments', { _id: '$k', n: { $count: {} }, one: { $sum: 1 }, half: { $sum: 0.5 }, nul: { $max: null } }],
    ['a constant key', { _id: null, s: { $sum: '$v' }, a: { $avg: '$w' }, n: { $sum: 1 } }],
    ['a string constant key', { _id: 'all', s: { $sum: '$w' } }],
    ['a non-ASCII field name', { _id: '$ü', s: { $sum: '$ü' }, n: { $sum: 1 } }],
    ['the key is also the argument', { _id: '$v', s: { $sum: '$v' }, l: { $last: '$v' } }],
    ['$stdDevPop and $stdDevSamp', { _id: '$k', p: { $stdDevPop: '$w' }, s: { $stdDevSamp: '$v' } }],
  ])('%s', async (_name, group) => {
    const { direct, general } = await both(group);
    expect(direct.length).toBeGreaterThan(0);
    expect(direct).toEqual(general);
  });

  test('after a $match (pushed into the scan)', async () => {
    const { direct, general } = await both({ _id: '$k', s: { $sum: '$w' } }, {}, [{ $match: { w: { $gt: 100 } } }]);
    expect(direct).toEqual(general);
  });

  test('with a case-insensitive collation, keys that differ by case group together', async () => {
    const collation = { collation: { locale: 'en', strength: 2 } };
    const { direct, general } = await both({ _id: '$k', n: { $sum: 1 } }, collation);
    expect(direct).toEqual(general);
    const strings = (await h.db.collection('g').aggregate([{ $match: { k: { $in: ['a', 'A'] } } }, { $group: { _id: '$k', n: { $sum: 1 } } }], collation).toArray());
    expect(strings).toHaveLength(1);
    expect(strings[0]!.n).toBe(2 * (VALUES.length + 1));
  });
});

describe('$group read straight from the stored bytes: exact values', () => {
  test('int32 sums overflow to int64, then to double; numbers of every type share one key', async () => {
    const c = h.db.collection('exact');
    await c.drop().catch(() => undefined);
    await c.insertMany([
      { k: new Int32(1), v: new Int32(2147483647) },
      { k: new Double(1), v: new Int32(1) },
      { k: Long.fromNumber(1), v: new Int32(1) },
      { k: null, v: Long.fromString('9223372036854775807') },
      { v: Long.fromNumber(1) },
    ]);
    const out = await c.aggregate([{ $group: { _id: '$k', s: { $sum: '$v' }, n: { $sum: 1 } } }, { $sort: { _id: 1 } }], RAW).toArray();
    expect(out.map((d) => EJSON.stringify(d, { relaxed: false }))).toEqual([
      EJSON.stringify({ _id: null, s: new Double(9223372036854775808), n: new Int32(2) }, { relaxed: false }),
      EJSON.stringify({ _id: new Int32(1), s: Long.fromNumber(2147483649), n: new Int32(3) }, { relaxed: false }),
    ]);
  });
});

describe('$group read straight from the stored bytes sees only live documents', () => {
  test('Cosmos DB TTL: expired documents are not grouped', async () => {
    const t = await startHarness({ compat: 'cosmos', clock: 'manual', parameters: { ttlMonitorEnabled: false } });
    try {
      const c = t.db.collection('ttl');
      await c.createIndex({ _ts: 1 }, { expireAfterSeconds: 10 });
      await c.insertMany([{ _id: 1, k: 'a', ttl: 5 }, { _id: 2, k: 'a' }, { _id: 3, k: 'b', ttl: 5 }]);
      t.server.clock.advance(6_000);
      const out = await c.aggregate([{ $group: { _id: '$k', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray();
      expect(out).toEqual([{ _id: 'a', n: 1 }]);
    } finally {
      await t.close();
    }
  });

  test('in a transaction: its own insert is grouped, another client sees it only after the commit', async () => {
    const r = await startHarness({ replSet: 'rs0' });
    try {
      const c = r.db.collection('txn');
      await c.insertMany([{ _id: 1, k: 'a' }, { _id: 2, k: 'b' }]);
      const session = r.client.startSession();
      session.startTransaction();
      await c.insertOne({ _id: 3, k: 'a' }, { session });
      const group = [{ $group: { _id: '$k', n: { $sum: 1 } } }, { $sort: { _id: 1 } }];
      expect(await c.aggregate(group, { session }).toArray()).toEqual([{ _id: 'a', n: 2 }, { _id: 'b', n: 1 }]);
      expect(await c.aggregate(group).toArray()).toEqual([{ _id: 'a', n: 1 }, { _id: 'b', n: 1 }]);
      await session.commitTransaction();
      await session.endSession();
      expect(await c.aggregate(group).toArray()).toEqual([{ _id: 'a', n: 2 }, { _id: 'b', n: 1 }]);
    } finally {
      await r.close();
    }
  });
});
