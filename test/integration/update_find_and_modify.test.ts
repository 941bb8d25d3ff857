/** `findAndModify` through the driver: every option, its type errors, and the reply shapes. */
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

const C = 'fam';

beforeEach(async () => {
  await h.db.collection(C).deleteMany({});
  await h.db.collection(C).insertMany([
    { _id: 1, n: 5, tags: ['a', 'b'] },
    { _id: 2, n: 1, tags: ['c'] },
    { _id: 3, n: 3, tags: [] },
  ]);
});

function fam(extra: Document): Promise<Document> {
  return h.db.command({ findAndModify: C, ...extra });
}

describe('reply shapes', () => {
  it('update returns the old document by default, the new one with new: true', async () => {
    expect(await fam({ query: { _id: 2 }, update: { $inc: { n: 1 } } })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 2, n: 1, tags: ['c'] },
      ok: 1,
    });
    expect(await fam({ query: { _id: 2 }, update: { $inc: { n: 1 } }, new: true })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 2, n: 3, tags: ['c'] },
      ok: 1,
    });
  });

  it('no match without upsert', async () => {
    expect(await fam({ query: { _id: 9 }, update: { $set: { x: 1 } } })).toEqual({ lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 });
  });

  it('upsert returns null, or the new document with new: true', async () => {
    expect(await fam({ query: { _id: 10 }, update: { $set: { x: 1 } }, upsert: true })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: false, upserted: 10 },
      value: null,
      ok: 1,
    });
    expect(await fam({ query: { k: 'q' }, update: { $set: { x: 2 } }, upsert: true, new: true, fields: { _id: 0 } })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: false, upserted: expect.any(ObjectId) },
      value: { k: 'q', x: 2 },
      ok: 1,
    });
  });

  it('remove returns the removed document; nothing matched is n: 0', async () => {
    expect(await fam({ query: { _id: 3 }, remove: true })).toEqual({ lastErrorObject: { n: 1 }, value: { _id: 3, n: 3, tags: [] }, ok: 1 });
    expect(await fam({ query: { _id: 3 }, remove: true })).toEqual({ lastErrorObject: { n: 0 }, value: null, ok: 1 });
  });

  it('sort picks the document; fields projects it', async () => {
    expect(await fam({ query: {}, sort: { n: -1 }, update: { $set: { top: true } }, new: true, fields: { n: 1, top: 1, _id: 0 } })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { n: 5, top: true },
      ok: 1,
    });
  });

  it('a replacement and a pipeline update', async () => {
    expect(await fam({ query: { _id: 2 }, update: { z: 1 }, new: true })).toEqual({ lastErrorObject: { n: 1, updatedExisting: true }, value: { _id: 2, z: 1 }, ok: 1 });
    expect(await fam({ query: { _id: 1 }, update: [{ $set: { m: { $multiply: ['$n', '$$k'] } } }], let: { k: 3 }, new: true, fields: { m: 1 } })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 1, m: 15 },
      ok: 1,
    });
  });

  it('arrayFilters and the positional $', async () => {
    expect(await fam({ query: { _id: 1 }, update: { $set: { 'tags.$[t]': 'B' } }, arrayFilters: [{ t: 'b' }], new: true })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 1, n: 5, tags: ['a', 'B'] },
      ok: 1,
    });
    expect(await fam({ query: { tags: 'a' }, update: { $set: { 'tags.$': 'A' } }, fields: { 'tags.$': 1 } })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 1, tags: ['a'] },
      ok: 1,
    });
    expect(await h.db.collection(C).findOne({ _id: 1 })).toEqual({ _id: 1, n: 5, tags: ['A', 'B'] });
  });

  it('the driver helpers', async () => {
    expect(await h.db.collection(C).findOneAndUpdate({ _id: 2 }, { $inc: { n: 10 } }, { returnDocument: 'after', projection: { n: 1 } })).toEqual({ _id: 2, n: 11 });
    expect(await h.db.collection(C).findOneAndReplace({ _id: 2 }, { r: 1 }, { returnDocument: 'before' })).toEqual({ _id: 2, n: 11, tags: ['c'] });
    expect(await h.db.collection(C).findOneAndDelete({ _id: 2 })).toEqual({ _id: 2, r: 1 });
    expect(await h.db.collection(C).countDocuments()).toBe(2);
  });

  it('numbers are accepted for the boolean options', async () => {
    expect(await fam({ query: { _id: 2 }, update: { $set: { b: 1 } }, new: 1, upsert: 0 })).toEqual({
      lastErrorObject: { n: 1, updatedExisting: true },
      value: { _id: 2, n: 1, tags: ['c'], b: 1 },
      ok: 1,
    });
  });

  it('hint naming an index that does not exist', async () => {
    const err = await errorOf(() => fam({ query: { _id: 2 }, update: { $set: { b: 1 } }, hint: 'nope' }));
    expect([err.code, err.errmsg]).toEqual([2, 'hint provided does not correspond to an existing index']);
  });
});

describe('errors', () => {
  const cases: Array<[string, Document, number, string]> = [
    ['neither update nor remove', { query: {} }, 9, 'Either an update or remove=true must be specified'],
    ['update and remove', { remove: true, update: { $set: { a: 1 } } }, 9, 'Cannot specify both an update and remove=true'],
    ['upsert and remove', { remove: true, upsert: true }, 9, 'Cannot specify both upsert=true and remove=true '],
    ['new and remove', { remove: true, new: true }, 9, "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document"],
    ['arrayFilters and remove', { remove: true, arrayFilters: [{ i: 0 }] }, 9, 'Cannot specify arrayFilters and remove=true'],
    ['arrayFilters and a pipeline', { update: [{ $set: { a: 1 } }], arrayFilters: [{ i: 0 }] }, 9, 'Cannot specify arrayFilters and a pipeline update'],
    ['update of a wrong type', { update: 5 }, 9, 'Update argument must be either an object or an array'],
    ['remove of a wrong type', { remove: 'yes' }, 14, "BSON field 'findAndModify.remove' is the wrong type 'string', expected types '[int, decimal, long, bool, double]'"],
    ['new of a wrong type', { update: { $set: { a: 1 } }, new: 'yes' }, 14, "BSON field 'findAndModify.new' is the wrong type 'string', expected types '[int, decimal, long, bool, double]'"],
    ['upsert of a wrong type', { update: { $set: { a: 1 } }, upsert: [1] }, 14, "BSON field 'findAndModify.upsert' is the wrong type 'array', expected types '[int, decimal, long, bool, double]'"],
    [
      'bypassDocumentValidation of a wrong type',
      { update: { $set: { a: 1 } }, bypassDocumentValidation: 'x' },
      14,
      "BSON field 'findAndModify.bypassDocumentValidation' is the wrong type 'string', expected types '[int, decimal, long, bool, double]'",
    ],
    ['arrayFilters of a wrong type', { update: { $set: { a: 1 } }, arrayFilters: { i: 0 } }, 14, "BSON field 'findAndModify.arrayFilters' is the wrong type 'object', expected type 'array'"],
    ['query of a wrong type', { query: 1, update: { $set: { a: 1 } } }, 14, "BSON field 'findAndModify.query' is the wrong type 'int', expected type 'object'"],
    ['fields of a wrong type', { update: { $set: { a: 1 } }, fields: 'a' }, 14, "BSON field 'findAndModify.fields' is the wrong type 'string', expected type 'object'"],
    ['hint of a wrong type', { update: { $set: { a: 1 } }, hint: 1 }, 9, 'Hint must be a string or an object'],
    ['an unknown field', { update: { $set: { a: 1 } }, bogus: 1 }, 40415, "BSON field 'findAndModify.bogus' is an unknown field."],
    ['a bad collation', { query: { _id: 1 }, update: { $set: { a: 1 } }, collation: { locale: 'en', strength: 0 } }, 2, "BSON field 'strength' value must be >= 1, actual value '0'"],
    ['an unused array filter', { query: { _id: 1 }, update: { $set: { x: 1 } }, arrayFilters: [{ i: 0 }] }, 9, "The array filter for identifier 'i' was not used in the update { $set: { x: 1 } }"],
    ['$expr in an upsert query', { query: { $expr: { $eq: ['$n', 1] } }, update: { $set: { x: 1 } }, upsert: true }, 224, '$expr is not allowed in the query predicate for an upsert'],
    ['a runtime update error', { query: { _id: 1 }, update: { $inc: { tags: 1 } } }, 14, "Plan executor error during findAndModify :: caused by :: Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'tags' of non-numeric type array"],
    ['an _id change', { query: { _id: 1 }, update: { $set: { _id: 5 } } }, 66, "Plan executor error during findAndModify :: caused by :: Performing an update on the path '_id' would modify the immutable field '_id'"],
    ['a runtime pipeline error', { query: { _id: 1 }, update: [{ $set: { v: { $abs: '$$cv' } } }], let: { cv: 'x' } }, 28765, 'Plan executor error during findAndModify :: caused by :: $abs only supports numeric types, not string'],
  ];
  for (const [name, extra, code, message] of cases) {
    it(name, async () => {
      const err = await errorOf(() => fam(extra));
      expect([err.code, err.errmsg]).toEqual([code, message]);
      expect(await h.db.collection(C).find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, n: 5, tags: ['a', 'b'] },
        { _id: 2, n: 1, tags: ['c'] },
        { _id: 3, n: 3, tags: [] },
      ]);
    });
  }

  it('a simple collation is accepted', async () => {
    expect(await fam({ query: { _id: 3 }, remove: true, collation: { locale: 'simple' } })).toEqual({ lastErrorObject: { n: 1 }, value: { _id: 3, n: 3, tags: [] }, ok: 1 });
  });
});
