/**
 * Ordinary writes on a versioned collection (TTL.md "Versioned collections"): insert, update with
 * operators, replace, findAndModify, upsert and delete work as on any collection, and each
 * written column gets a new version stamped with the server's now; reads (find, aggregate,
 * count, distinct) see each row as a plain document of its newest readable versions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { errorOf, startHarness, type Harness } from './harness.js';
import { createVersioned, getRow, putRow, version } from './versioned_helpers.js';

let h: Harness;
let name = '';
let n = 0;
beforeAll(async () => {
  h = await startHarness({ clock: 'manual' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  name = `w${++n}`;
  await createVersioned(h.db, name, { maxVersions: 10 });
});

const coll = () => h.db.collection(name);
const now = () => h.server.clock.now();
/** Moves the clock 1 s on and returns the new now. */
const tick = () => h.server.clock.advance(1000);

describe('each written column gets a version at now', () => {
  test('insertOne / insertMany: one version per column', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1, b: 'x' });
    await coll().insertMany([{ _id: 2, c: [1, 2] }, { _id: 3 }]);
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version(1, t0)], b: [version('x', t0)] });
    expect(await getRow(h.db, name, 2)).toEqual({ _id: 2, c: [version([1, 2], t0)] });
    // A row with no column is an ordinary (key-only) row: visible, with no versions.
    expect(await getRow(h.db, name, 3)).toEqual({ _id: 3 });
    expect(await coll().find({}, { sort: { _id: 1 } }).toArray()).toEqual([{ _id: 1, a: 1, b: 'x' }, { _id: 2, c: [1, 2] }, { _id: 3 }]);
  });

  test('$set, $inc, $unset: versions for the columns changed, $unset drops every version of its column', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1, n: 10, gone: true });
    const t1 = tick();
    expect((await coll().updateOne({ _id: 1 }, { $set: { a: 2 }, $inc: { n: 5 } })).modifiedCount).toBe(1);
    const t2 = tick();
    await coll().updateOne({ _id: 1 }, { $unset: { gone: '' }, $set: { added: 'new' } });
    expect(await getRow(h.db, name, 1)).toEqual({
      _id: 1,
      a: [version(2, t1), version(1, t0)],
      n: [version(15, t1), version(10, t0)],
      added: [version('new', t2)],
    });
    expect(await coll().findOne({ _id: 1 })).toEqual({ _id: 1, a: 2, n: 15, added: 'new' });
  });

  test('an update that changes nothing writes no version (modifiedCount 0)', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1 });
    tick();
    const result = await coll().updateOne({ _id: 1 }, { $set: { a: 1 } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 0]);
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version(1, t0)] });
  });

  test('replaceOne: new values are versions, absent columns lose their versions, identical ones keep theirs', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1, b: 2, c: 3 });
    const t1 = tick();
    await coll().replaceOne({ _id: 1 }, { c: 3, a: 'A', d: 'D' });
    expect(await coll().findOne({ _id: 1 })).toEqual({ _id: 1, c: 3, a: 'A', d: 'D' });
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, c: [version(3, t0)], a: [version('A', t1), version(1, t0)], d: [version('D', t1)] });
  });

  test('findOneAndUpdate and findOneAndReplace return documents and write versions', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1 });
    const t1 = tick();
    expect(await coll().findOneAndUpdate({ _id: 1 }, { $inc: { a: 1 } }, { returnDocument: 'after' })).toEqual({ _id: 1, a: 2 });
    const t2 = tick();
    expect(await coll().findOneAndReplace({ a: 2 }, { a: 3 }, { returnDocument: 'before' })).toEqual({ _id: 1, a: 2 });
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version(3, t2), version(2, t1), version(1, t0)] });
  });

  test('upsert creates the row at now', async () => {
    const t0 = now();
    await coll().updateOne({ _id: 'u' }, { $set: { a: 1 } }, { upsert: true });
    expect(await getRow(h.db, name, 'u')).toEqual({ _id: 'u', a: [version(1, t0)] });
  });

  test('deleteOne / findOneAndDelete remove the whole row with its history', async () => {
    await coll().insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    tick();
    await coll().updateOne({ _id: 1 }, { $set: { a: 10 } });
    expect((await coll().deleteOne({ _id: 1 })).deletedCount).toBe(1);
    expect(await coll().findOneAndDelete({ a: 2 })).toEqual({ _id: 2, a: 2 });
    expect(await getRow(h.db, name, 1)).toBe(null);
    expect(await getRow(h.db, name, 2)).toBe(null);
    expect(await coll().countDocuments()).toBe(0);
  });

  test('two writes in the same millisecond: the second replaces the version (one version per timestamp)', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1 });
    await coll().updateOne({ _id: 1 }, { $set: { a: 2 } });
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version(2, t0)] });
  });

  test('a duplicate _id is still 11000; the row is unchanged', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1 });
    tick();
    const err = await errorOf(() => coll().insertOne({ _id: 1, a: 2 }));
    expect(err.code).toBe(11000);
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version(1, t0)] });
  });

  test('the _id of a row putRow created is a duplicate for insertOne too, greatest or not', async () => {
    const t0 = now();
    await coll().insertOne({ _id: 1, a: 1 });
    await putRow(h.db, name, { _id: 5, a: 'put' });
    tick();
    const err = await errorOf(() => coll().insertOne({ _id: 5, a: 'inserted' }));
    expect([err.code, err.errmsg]).toEqual([11000, `E11000 duplicate key error collection: ${h.db.databaseName}.${name} index: _id_ dup key: { _id: 5 }`]);
    await coll().insertOne({ _id: 3, a: 3 });
    expect(await coll().find({}, { sort: { _id: 1 } }).toArray()).toEqual([{ _id: 1, a: 1 }, { _id: 3, a: 3 }, { _id: 5, a: 'put' }]);
    expect(await getRow(h.db, name, 5)).toEqual({ _id: 5, a: [version('put', t0)] });
  });
});

describe('reads see the newest readable version of each column', () => {
  test('find with filter, projection and sort; aggregate; count; distinct', async () => {
    await coll().insertMany([
      { _id: 1, g: 'x', v: 1 },
      { _id: 2, g: 'y', v: 2 },
      { _id: 3, g: 'x', v: 3 },
    ]);
    tick();
    await coll().updateOne({ _id: 2 }, { $set: { g: 'x', v: 20 } });
    expect(await coll().find({ g: 'x' }, { projection: { _id: 0, v: 1 }, sort: { v: -1 } }).toArray()).toEqual([{ v: 20 }, { v: 3 }, { v: 1 }]);
    expect(await coll().find({ v: 2 }).toArray()).toEqual([]);
    expect(await coll().aggregate([{ $group: { _id: '$g', total: { $sum: '$v' } } }]).toArray()).toEqual([{ _id: 'x', total: 24 }]);
    expect(await coll().countDocuments({ g: 'x' })).toBe(3);
    expect(await coll().distinct('v')).toEqual([1, 3, 20]);
  });

  test('a version stamped in the future stays the newest: an ordinary write at now sits behind it', async () => {
    const t0 = now();
    await putRow(h.db, name, { _id: 1, a: 'tomorrow' }, { a: t0 + 3_600_000 });
    const result = await coll().updateOne({ _id: 1 }, { $set: { a: 'today' } });
    expect(result.modifiedCount).toBe(1);
    expect(await coll().findOne({ _id: 1 })).toEqual({ _id: 1, a: 'tomorrow' });
    expect(await getRow(h.db, name, 1)).toEqual({ _id: 1, a: [version('tomorrow', t0 + 3_600_000), version('today', t0)] });
  });

  test('a cursor over many rows reads them batch by batch', async () => {
    await coll().insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i, v: i })));
    const docs = await coll().find({}, { batchSize: 100 }).toArray();
    expect(docs.length).toBe(250);
    expect(docs[249]).toEqual({ _id: 249, v: 249 });
  });
});
