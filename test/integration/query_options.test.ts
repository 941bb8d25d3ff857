/**
 * Command options of the read and delete paths: `let` variables, `collation` (more in
 * collation.test.ts), and the shape of error replies (`ok: 0.0`, a double, as mongod sends it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
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
  it('the simple collation compares binary, another one by its rules; a bad one is an error', async () => {
    const ci = { locale: 'en_US', strength: 2 };
    expect(await db.collection('lv').countDocuments({ name: 'b' }, { collation: { locale: 'simple' } })).toBe(2);
    expect(await db.collection('lv').countDocuments({ name: 'B' }, { collation: { locale: 'simple' } })).toBe(0);
    expect(await db.collection('lv').find({ name: 'B' }, { collation: ci }).toArray()).toEqual([{ _id: 2, name: 'b' }, { _id: 3, name: 'b' }]);
    expect(await db.collection('lv').countDocuments({ name: 'B' }, { collation: ci })).toBe(2);
    expect(await db.collection('lv').distinct('name', {}, { collation: ci })).toEqual(['a', 'b']);
    expect(await db.collection('lv').aggregate([{ $match: { name: 'A' } }], { collation: { locale: 'fr', strength: 1 } }).toArray()).toEqual([{ _id: 1, name: 'a' }]);
    // (a delete statement's collation error is that statement's write error, without codeName)
    const err = await errorOf(() => db.collection('lv').deleteOne({ name: 'B' }, { collation: { locale: 'en_us' } }));
    expect([err.code, err.errmsg]).toEqual([2, 'Field \'locale\' is invalid in: { locale: "en_us" }. Did you mean \'en_US\'?']);
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
