/**
 * The `update` command's statements through the driver: IDL checks (command errors, nothing
 * written), parse errors (write errors), `let` and `c`, `sort`, upserts and their `_id`, counts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ObjectId, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});

afterAll(async () => {
  await h.close();
});

async function seed(name: string, docs: Document[]): Promise<void> {
  await h.db.collection(name).deleteMany({});
  await h.db.collection(name).insertMany(docs);
}

async function all(name: string): Promise<Document[]> {
  return h.db.collection(name).find().sort({ _id: 1 }).toArray();
}

describe('statement fields are checked before anything runs', () => {
  beforeEach(async () => seed('idl', [{ _id: 1 }, { _id: 2 }]));

  const cases: Array<[string, Document, number, string]> = [
    ['an unknown field', { q: {}, u: { $set: { a: 1 } }, zz: 1 }, 40415, "BSON field 'update.updates.zz' is an unknown field."],
    ['a $-prefixed unknown field', { q: {}, u: { $set: { a: 1 } }, $db: 'x' }, 40415, "BSON field 'update.updates.$db' is an unknown field."],
    ['multi as a number', { q: {}, u: { $set: { a: 1 } }, multi: 1 }, 14, "BSON field 'update.updates.multi' is the wrong type 'int', expected type 'bool'"],
    ['upsert as a string', { q: {}, u: { $set: { a: 1 } }, upsert: 'yes' }, 14, "BSON field 'update.updates.upsert' is the wrong type 'string', expected type 'bool'"],
    ['q as an array', { q: [], u: { $set: { a: 1 } } }, 14, "BSON field 'update.updates.q' is the wrong type 'array', expected type 'object'"],
    ['u as a number', { q: {}, u: 5 }, 9, 'Update argument must be either an object or an array'],
    ['missing q', { u: { $set: { a: 1 } } }, 40414, "BSON field 'update.updates.q' is missing but a required field"],
    ['missing u', { q: {} }, 40414, "BSON field 'update.updates.u' is missing but a required field"],
    ['arrayFilters as an object', { q: {}, u: { $set: { a: 1 } }, arrayFilters: { i: 0 } }, 14, "BSON field 'update.updates.arrayFilters' is the wrong type 'object', expected type 'array'"],
    ['an array filter that is not an object', { q: {}, u: { $set: { a: 1 } }, arrayFilters: [1] }, 14, "BSON field 'update.updates.arrayFilters.0' is the wrong type 'int', expected type 'object'"],
    ['hint as a number', { q: {}, u: { $set: { a: 1 } }, hint: 1 }, 9, 'Hint must be a string or an object'],
    ['c as a string', { q: {}, u: [{ $set: { a: 1 } }], c: 'x' }, 14, "BSON field 'update.updates.c' is the wrong type 'string', expected type 'object'"],
    ['sort as an array', { q: {}, u: { $set: { a: 1 } }, sort: [1] }, 14, "BSON field 'update.updates.sort' is the wrong type 'array', expected type 'object'"],
    ['collation as a string', { q: {}, u: { $set: { a: 1 } }, collation: 'simple' }, 14, "BSON field 'update.updates.collation' is the wrong type 'string', expected type 'object'"],
    ['upsertSupplied as a number', { q: {}, u: [{ $set: { a: 1 } }], upsertSupplied: 1 }, 14, "Field 'upsertSupplied' should be a boolean value, but found: int"],
  ];
  for (const [name, bad, code, message] of cases) {
    it(name, async () => {
      const err = await errorOf(() => h.db.command({ update: 'idl', updates: [{ q: { _id: 1 }, u: { $set: { first: 1 } } }, bad] }));
      expect([err.code, err.errmsg]).toEqual([code, message]);
      expect(await all('idl')).toEqual([{ _id: 1 }, { _id: 2 }]);
    });
  }

  it('ordered must be a bool', async () => {
    const err = await errorOf(() => h.db.command({ update: 'idl', updates: [{ q: {}, u: { $set: { a: 1 } } }], ordered: 1 }));
    expect([err.code, err.errmsg]).toEqual([14, "BSON field 'update.ordered' is the wrong type 'int', expected type 'bool'"]);
  });

  it('null multi/upsert read as absent', async () => {
    const reply = await h.db.command({ update: 'idl', updates: [{ q: {}, u: { $set: { a: 1 } }, multi: null, upsert: null }] });
    expect(reply).toEqual({ n: 1, nModified: 1, ok: 1 });
  });
});

describe('statement parse errors are write errors', () => {
  it('constants on a non-pipeline, upsertSupplied misuse, $expr in an upsert query, collations', async () => {
    await seed('parse', [{ _id: 1 }]);
    const reply = await h.db.command({
      update: 'parse',
      ordered: false,
      updates: [
        { q: {}, u: { $set: { w: 1 } }, c: { z: 2 } },
        { q: {}, u: [{ $set: { w: 1 } }], upsertSupplied: true },
        { q: {}, u: [{ $set: { w: 1 } }], upsert: true, upsertSupplied: true, c: {} },
        { q: { $expr: { $eq: ['$_id', 9] } }, u: { $set: { w: 1 } }, upsert: true },
        { q: {}, u: { $set: { w: 1 } }, collation: { locale: 'xx' } },
        { q: {}, u: { a: 1 }, multi: true },
        { q: {}, u: { $set: { w: 2 } }, collation: { locale: 'simple' } },
      ],
    });
    expect(reply).toEqual({
      n: 1,
      nModified: 1,
      writeErrors: [
        { index: 0, code: 51198, errmsg: 'Constant values may only be specified for pipeline updates' },
        { index: 1, code: 9, errmsg: "cannot specify 'upsertSupplied: true' for a non-upsert operation" },
        { index: 2, code: 9, errmsg: "the parameter 'upsertSupplied' is set to 'true', but no document was supplied" },
        { index: 3, code: 224, errmsg: '$expr is not allowed in the query predicate for an upsert' },
        { index: 4, code: 2, errmsg: 'Field \'locale\' is invalid in: { locale: "xx" }' },
        { index: 5, code: 9, errmsg: 'multi update is not supported for replacement-style update' },
      ],
      ok: 1,
    });
    expect(await all('parse')).toEqual([{ _id: 1, w: 2 }]);
  });

  it('sort with multi fails the command at that statement', async () => {
    await seed('sortmulti', [{ _id: 1, v: 1 }]);
    const err = await errorOf(() =>
      h.db.command({ update: 'sortmulti', updates: [{ q: {}, u: { $set: { a: 1 } } }, { q: {}, u: { $set: { z: 1 } }, multi: true, sort: { v: 1 } }] }),
    );
    expect([err.code, err.codeName, err.errmsg]).toEqual([9, 'FailedToParse', 'Cannot specify sort with multi=true']);
    expect(await all('sortmulti')).toEqual([{ _id: 1, v: 1, a: 1 }]);
  });

  it('a runtime error carries the executor prefix', async () => {
    await seed('rt', [{ _id: 1, s: 'text' }]);
    const reply = await h.db.command({ update: 'rt', updates: [{ q: { _id: 1 }, u: { $inc: { s: 1 } } }] });
    expect(reply.writeErrors).toEqual([
      {
        index: 0,
        code: 14,
        errmsg: "Plan executor error during update :: caused by :: Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string",
      },
    ]);
  });
});

describe('let and c', () => {
  beforeEach(async () => seed('vars', [{ _id: 1 }, { _id: 2 }]));

  it('the command let reaches a pipeline update and $expr', async () => {
    const reply = await h.db.command({
      update: 'vars',
      let: { x: 5, target: 2 },
      updates: [{ q: { $expr: { $eq: ['$_id', '$$target'] } }, u: [{ $set: { v: '$$x' } }], multi: true }],
    });
    expect(reply).toEqual({ n: 1, nModified: 1, ok: 1 });
    expect(await all('vars')).toEqual([{ _id: 1 }, { _id: 2, v: 5 }]);
  });

  it('let values are expressions evaluated once', async () => {
    await h.db.command({ update: 'vars', let: { x: { $add: [1, 2] } }, updates: [{ q: {}, u: [{ $set: { v: '$$x' } }], multi: true }] });
    expect(await all('vars')).toEqual([{ _id: 1, v: 3 }, { _id: 2, v: 3 }]);
  });

  it('the statement constants win over let', async () => {
    await h.db.command({ update: 'vars', let: { y: 1 }, updates: [{ q: {}, u: [{ $set: { v: '$$y', w: '$$y.k' } }], c: { y: { k: 7 } }, multi: true }] });
    expect(await all('vars')).toEqual([{ _id: 1, v: { k: 7 }, w: 7 }, { _id: 2, v: { k: 7 }, w: 7 }]);
  });

  it('an undefined variable is a write error', async () => {
    const reply = await h.db.command({ update: 'vars', updates: [{ q: {}, u: [{ $set: { v: '$$zz' } }], multi: true }] });
    expect(reply).toEqual({ n: 0, nModified: 0, writeErrors: [{ index: 0, code: 17276, errmsg: 'Invalid $set :: caused by :: Use of undefined variable: zz' }], ok: 1 });
  });

  it('a let reading a field is refused', async () => {
    const err = await errorOf(() => h.db.command({ update: 'vars', let: { x: '$a' }, updates: [{ q: {}, u: [{ $set: { v: '$$x' } }] }] }));
    expect([err.code, err.errmsg]).toEqual([
      4890500,
      'Command let Expression tried to access a field, but this is not allowed becauseCommand let Expressions run before the query examines any documents.',
    ]);
  });

  it('a runtime error of a pipeline carries the executor prefix', async () => {
    const reply = await h.db.command({ update: 'vars', let: { cv: 'x' }, updates: [{ q: {}, u: [{ $set: { v: { $abs: '$$cv' } } }], multi: true }] });
    expect(reply.writeErrors).toEqual([{ index: 0, code: 28765, errmsg: 'Plan executor error during update :: caused by :: $abs only supports numeric types, not string' }]);
  });
});

describe('sort, counts and upserts', () => {
  it('updateOne with sort picks the first in sort order', async () => {
    await seed('sorted', [{ _id: 1, v: 3 }, { _id: 2, v: 1 }, { _id: 3, v: 2 }]);
    await h.db.collection('sorted').updateOne({}, { $set: { hit: 1 } }, { sort: { v: 1 } });
    await h.db.collection('sorted').updateOne({}, { $set: { hit2: 1 } }, { sort: { v: -1 } });
    expect(await all('sorted')).toEqual([{ _id: 1, v: 3, hit2: 1 }, { _id: 2, v: 1, hit: 1 }, { _id: 3, v: 2 }]);
  });

  it('n counts matches, nModified real changes, upserted its index and _id', async () => {
    await seed('counts', [{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
    const reply = await h.db.command({
      update: 'counts',
      updates: [
        { q: {}, u: { $set: { a: 1 } }, multi: true },
        { q: { _id: 7 }, u: { $set: { b: 1 } }, upsert: true },
        { q: { _id: 1 }, u: { a: 1 } },
      ],
    });
    expect(reply).toEqual({ n: 4, nModified: 1, upserted: [{ index: 1, _id: 7 }], ok: 1 });
    expect(Object.keys(reply)).toEqual(['n', 'upserted', 'nModified', 'ok']);
    const failed = await h.db.command({ update: 'counts', updates: [{ q: { _id: 8 }, u: { $set: { c: 1 } }, upsert: true }, { q: {}, u: { $inc: { a: 'x' } } }] });
    expect(Object.keys(failed)).toEqual(['n', 'writeErrors', 'upserted', 'nModified', 'ok']);
  });

  it('an upsert seeds equality fields in sorted order, then the update, _id first', async () => {
    await h.db.collection('ups').deleteMany({});
    const res = await h.db.collection('ups').updateOne({ z: 1, 'm.n': 2, a: { $gt: 0 }, $and: [{ b: 3 }] }, { $set: { c: 4 }, $setOnInsert: { s: 1 } }, { upsert: true });
    expect(res.upsertedId).toBeInstanceOf(ObjectId);
    expect(await h.db.collection('ups').findOne({}, { projection: { _id: 0 } })).toEqual({ b: 3, m: { n: 2 }, z: 1, c: 4, s: 1 });
    const doc = await h.db.collection('ups').findOne({});
    expect(Object.keys(doc!)[0]).toBe('_id');
  });

  it('an upsert may not change the _id its query sets', async () => {
    const reply = await h.db.command({ update: 'ups2', updates: [{ q: { _id: 1 }, u: { $set: { _id: 2 } }, upsert: true }] });
    expect(reply.writeErrors).toEqual([
      { index: 0, code: 66, errmsg: "Plan executor error during update :: caused by :: Performing an update on the path '_id' would modify the immutable field '_id'" },
    ]);
  });

  it('a replacement upsert keeps only the query _id', async () => {
    await h.db.collection('ups3').deleteMany({});
    await h.db.collection('ups3').replaceOne({ _id: 3, k: 1 }, { v: 1 }, { upsert: true });
    expect(await h.db.collection('ups3').find().toArray()).toEqual([{ _id: 3, v: 1 }]);
  });

  it('upsertSupplied inserts c.new with the query _id', async () => {
    const reply = await h.db.command({ update: 'ups4', updates: [{ q: { _id: 60 }, u: [{ $set: { a: 1 } }], upsert: true, upsertSupplied: true, c: { new: { z: 1 } } }] });
    expect(reply).toEqual({ n: 1, nModified: 0, upserted: [{ index: 0, _id: 60 }], ok: 1 });
    expect(await h.db.collection('ups4').find().toArray()).toEqual([{ _id: 60, z: 1 }]);
  });

  it('a duplicate key while upserting carries the executor prefix', async () => {
    await seed('ups5', [{ _id: 1 }]);
    const reply = await h.db.command({ update: 'ups5', updates: [{ q: { u: 5 }, u: { $set: { _id: 1 } }, upsert: true }] });
    const db = h.db.databaseName;
    expect(reply.writeErrors).toEqual([
      {
        index: 0,
        code: 11000,
        errmsg: `Plan executor error during update :: caused by :: E11000 duplicate key error collection: ${db}.ups5 index: _id_ dup key: { _id: 1 }`,
        keyPattern: { _id: 1 },
        keyValue: { _id: 1 },
      },
    ]);
  });
});

describe("top-level '$' fields made by an operator update", () => {
  beforeEach(async () => seed('dollar', [{ _id: 1 }]));

  it("an upsert's new document may hold them (mongod validates it whole, allowing them)", async () => {
    const res = await h.db.collection('dollar').updateOne({ _id: 2 }, { $set: { $myKey: 'x', 'nested.$each': 1 } }, { upsert: true });
    expect(res.upsertedId).toBe(2);
    expect(await all('dollar')).toEqual([{ _id: 1 }, { _id: 2, $myKey: 'x', nested: { $each: 1 } }]);
  });

  it('an update of an existing document may not add one (52), and changes nothing', async () => {
    const err = await errorOf(() => h.db.collection('dollar').updateOne({ _id: 1 }, { $set: { $other: 'y' } }));
    expect([err.code, err.errmsg]).toEqual([
      52,
      "Plan executor error during update :: caused by :: The dollar ($) prefixed field '$other' in '$other' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    ]);
    expect(await all('dollar')).toEqual([{ _id: 1 }]);
  });
});
