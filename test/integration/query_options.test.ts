/**
 * Command options of the read and delete paths: `let` variables, the simple-collation-only
 * policy, and the shape of error replies (`ok: 0.0`, a double, as mongod sends it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, type Db } from 'mongodb';
import { startHarness, errorOf, type Harness } from './harness.js';

let h: Harness;
let db: Db;
beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  await db.collection('lv').insertMany([{ _id: 1, name: 'a' }, { _id: 2, name: 'b' }, { _id: 3, name: 'b' }]);
});
afterAll(async () => {
  await h.close();
});

describe('let', () => {
  it('find reads let variables in $expr', async () => {
    const docs = await db.collection('lv').find({ $expr: { $eq: ['$_id', '$$id'] } }, { let: { id: 2 } }).toArray();
    expect(docs).toEqual([{ _id: 2, name: 'b' }]);
  });

  it('delete statements read the command let', async () => {
    await db.collection('lv_del').insertMany([{ _id: 1, name: 'a' }, { _id: 2, name: 'b' }, { _id: 3, name: 'b' }]);
    const r = await db.collection('lv_del').deleteMany({ $expr: { $eq: ['$name', '$$name'] } }, { let: { name: 'b' } });
    expect(r.deletedCount).toBe(2);
    expect(await db.collection('lv_del').find().toArray()).toEqual([{ _id: 1, name: 'a' }]);
  });

  it('a let expression that reads a field is a command error', async () => {
    const err = await errorOf(() => db.command({ find: 'lv', filter: {}, let: { x: '$name' } }));
    expect([err.code, err.errmsg]).toEqual([
      4890500,
      'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.',
    ]);
  });
});

describe('collation', () => {
  it('the simple collation is accepted, any other refused with 238', async () => {
    expect(await db.collection('lv').countDocuments({ name: 'b' }, { collation: { locale: 'simple' } })).toBe(2);
    const refused = [
      () => db.collection('lv').find({ name: 'B' }, { collation: { locale: 'en_US', strength: 2 } }).toArray(),
      () => db.collection('lv').countDocuments({ name: 'B' }, { collation: { locale: 'en_US', strength: 2 } }),
      () => db.collection('lv').distinct('name', {}, { collation: { locale: 'en_US', strength: 2 } }),
      () => db.collection('lv').deleteOne({ name: 'B' }, { collation: { locale: 'en_US', strength: 2 } }),
      () => db.collection('lv').aggregate([], { collation: { locale: 'fr' } }).toArray(),
    ];
    for (const fn of refused) {
      const err = await errorOf(fn);
      // (a delete statement's collation error is that statement's write error, without codeName)
      expect([err.code, err.errmsg]).toEqual([238, 'Collations other than the simple collation are not supported by Mayfly yet']);
    }
    expect(await db.collection('lv').countDocuments()).toBe(3);
  });
});

describe('error replies', () => {
  it('carry ok: 0 as a double', async () => {
    const err = await errorOf(() => db.command({ find: 'lv', filter: { $bad: 1 } }, { promoteValues: false }));
    expect(err.ok).toEqual(new Double(0));
    expect(Object.keys(err).slice(0, 4)).toEqual(['ok', 'errmsg', 'code', 'codeName']);
  });
});
