/**
 * Positional updates through the driver: `$`, `$[]`, `$[<id>]` with arrayFilters, nested
 * arrays, upserts, `$bit`, and the find/findAndModify positional projection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Long } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
});

afterAll(async () => {
  await h.close();
});

describe('positional $', () => {
  it('updates the first array element the query matched', async () => {
    const coll = h.db.collection('pos_basic');
    await coll.insertMany([
      { _id: 1, grades: [85, 80, 80] },
      { _id: 2, grades: [88, 90, 92] },
    ]);
    const res = await coll.updateOne({ _id: 1, grades: 80 }, { $set: { 'grades.$': 82 } });
    expect([res.matchedCount, res.modifiedCount]).toEqual([1, 1]);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, grades: [85, 82, 80] },
      { _id: 2, grades: [88, 90, 92] },
    ]);
  });

  it('updates a field of the matched embedded document, with updateMany', async () => {
    const coll = h.db.collection('pos_docs');
    await coll.insertMany([
      { _id: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 1 }] },
      { _id: 2, items: [{ sku: 'b', qty: 5 }] },
    ]);
    const res = await coll.updateMany({ 'items.sku': 'b' }, { $inc: { 'items.$.qty': 10 } });
    expect([res.matchedCount, res.modifiedCount]).toEqual([2, 2]);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 11 }] },
      { _id: 2, items: [{ sku: 'b', qty: 15 }] },
    ]);
  });

  it('resolves through $elemMatch', async () => {
    const coll = h.db.collection('pos_elem');
    await coll.insertOne({ _id: 1, a: [{ x: 1, y: 1 }, { x: 1, y: 2 }] });
    await coll.updateOne({ a: { $elemMatch: { x: 1, y: 2 } } }, { $set: { 'a.$.hit': true } });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: [{ x: 1, y: 1 }, { x: 1, y: 2, hit: true }] });
  });

  it('without an array match in the query is a write error', async () => {
    const coll = h.db.collection('pos_nomatch');
    await coll.insertOne({ _id: 1, a: [1, 2] });
    const reply = await h.db.command({ update: 'pos_nomatch', updates: [{ q: { _id: 1 }, u: { $set: { 'a.$': 9 } } }] });
    expect(reply).toEqual({
      n: 0,
      nModified: 0,
      writeErrors: [
        { index: 0, code: 2, errmsg: 'Plan executor error during update :: caused by :: The positional operator did not find the match needed from the query.' },
      ],
      ok: 1,
    });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: [1, 2] });
  });

  it('an upsert cannot use it', async () => {
    const reply = await h.db.command({ update: 'pos_upsert', updates: [{ q: { a: 1 }, u: { $set: { 'a.$': 9 } }, upsert: true }] });
    expect(reply.writeErrors).toEqual([
      { index: 0, code: 2, errmsg: 'Plan executor error during update :: caused by :: The positional operator did not find the match needed from the query.' },
    ]);
    expect(await h.db.collection('pos_upsert').countDocuments()).toBe(0);
  });

  it('path errors are parse errors, without the executor prefix', async () => {
    const err = await errorOf(() => h.db.collection('pos_parse').updateOne({}, { $set: { 'a.$.b.$': 1 } }));
    expect([err.code, err.errmsg]).toEqual([2, "Too many positional (i.e. '$') elements found in path 'a.$.b.$'"]);
  });
});

describe('$[] and $[<identifier>]', () => {
  it('$[] updates every element', async () => {
    const coll = h.db.collection('all_pos');
    await coll.insertOne({ _id: 1, grades: [85, 82, 80] });
    await coll.updateOne({ _id: 1 }, { $inc: { 'grades.$[]': 10 } });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, grades: [95, 92, 90] });
  });

  it('arrayFilters select the elements, in nested arrays too', async () => {
    const coll = h.db.collection('af_nested');
    await coll.insertOne({ _id: 0, a: [{ b: 0, c: [{ d: 0 }, { d: 1 }] }, { b: 1, c: [{ d: 0 }, { d: 1 }] }] });
    const res = await coll.updateOne({ _id: 0 }, { $set: { 'a.$[i].c.$[j].d': 2 } }, { arrayFilters: [{ 'i.b': 0 }, { 'j.d': 0 }] });
    expect([res.matchedCount, res.modifiedCount]).toEqual([1, 1]);
    expect(await coll.findOne({ _id: 0 })).toEqual({ _id: 0, a: [{ b: 0, c: [{ d: 2 }, { d: 1 }] }, { b: 1, c: [{ d: 0 }, { d: 1 }] }] });
  });

  it('arrayFilters on updateMany and findOneAndUpdate', async () => {
    const coll = h.db.collection('af_many');
    await coll.insertMany([
      { _id: 1, grades: [95, 92, 90] },
      { _id: 2, grades: [98, 100, 102] },
    ]);
    const res = await coll.updateMany({}, { $set: { 'grades.$[element]': 100 } }, { arrayFilters: [{ element: { $gte: 100 } }] });
    expect([res.matchedCount, res.modifiedCount]).toEqual([2, 1]);
    const after = await coll.findOneAndUpdate(
      { _id: 1 },
      { $mul: { 'grades.$[g]': 2 } },
      { arrayFilters: [{ g: { $lt: 93 } }], returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 1, grades: [95, 184, 180] });
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, grades: [98, 100, 100] });
  });

  it('a $[] on a missing path is a write error', async () => {
    const coll = h.db.collection('af_missing');
    await coll.insertOne({ _id: 1 });
    const reply = await h.db.command({ update: 'af_missing', updates: [{ q: { _id: 1 }, u: { $set: { 'x.$[]': 1 } } }] });
    expect(reply.writeErrors).toEqual([
      { index: 0, code: 2, errmsg: "Plan executor error during update :: caused by :: The path 'x' must exist in the document in order to apply array updates." },
    ]);
  });

  it('array filter errors are the statement\'s write errors', async () => {
    await h.db.collection('af_err').insertOne({ _id: 1, a: [1] });
    const reply = await h.db.command({
      update: 'af_err',
      ordered: false,
      updates: [
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 0 } } },
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 5 } }, arrayFilters: [{ i: 0 }, { j: 0 }] },
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 5 } }, arrayFilters: [{ i: 0 }, { i: 1 }] },
        { q: { _id: 1 }, u: { $set: { 'a.$[I]': 5 } }, arrayFilters: [{ I: 0 }] },
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 5 } }, arrayFilters: [{ i: 0, j: 1 }] },
        { q: { _id: 1 }, u: [{ $set: { a: 1 } }], arrayFilters: [{ i: 0 }] },
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 2, 'a.$[j]': 3 } }, arrayFilters: [{ i: 1 }, { j: 1 }] },
        { q: { _id: 1 }, u: { $set: { 'a.$[i]': 7 } }, arrayFilters: [{ i: 1 }] },
      ],
    });
    expect(reply).toEqual({
      n: 1,
      nModified: 1,
      writeErrors: [
        { index: 0, code: 2, errmsg: "No array filter found for identifier 'i' in path 'a.$[i]'" },
        { index: 1, code: 9, errmsg: "The array filter for identifier 'j' was not used in the update { $set: { a.$[i]: 5 } }" },
        { index: 2, code: 9, errmsg: 'Found multiple array filters with the same top-level field name i' },
        {
          index: 3,
          code: 2,
          errmsg: "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'I'",
        },
        { index: 4, code: 9, errmsg: "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'i' and 'j'" },
        { index: 5, code: 9, errmsg: 'arrayFilters may not be specified for pipeline-syle updates' },
        { index: 6, code: 40, errmsg: "Plan executor error during update :: caused by :: Update created a conflict at 'a.0'" },
      ],
      ok: 1,
    });
    expect(await h.db.collection('af_err').findOne({ _id: 1 })).toEqual({ _id: 1, a: [7] });
  });

  it('an upsert applies $[] to the array its query seeds', async () => {
    const coll = h.db.collection('af_upsert');
    const res = await coll.updateOne({ _id: 5, a: [1, 2] }, { $inc: { 'a.$[]': 1 } }, { upsert: true });
    expect(res.upsertedId).toBe(5);
    expect(await coll.findOne({ _id: 5 })).toEqual({ _id: 5, a: [2, 3] });
  });
});

describe('$bit', () => {
  it('and/or/xor with Int32 and Int64', async () => {
    const coll = h.db.collection<{ _id: number; a: number; b: number | Long; c: number; d?: number }>('bit');
    await coll.insertOne({ _id: 1, a: 13, b: 3, c: 1 });
    await coll.updateOne({ _id: 1 }, { $bit: { a: { and: 10 }, b: { or: Long.fromNumber(4) }, c: { xor: 5 }, d: { or: 2 } } });
    const doc = await coll.findOne({ _id: 1 }, { promoteLongs: false });
    expect(doc).toEqual({ _id: 1, a: 8, b: Long.fromNumber(7), c: 4, d: 2 });
  });

  it('a non-integral field is a write error', async () => {
    await h.db.collection('bit_err').insertOne({ _id: 1, a: 1.5 });
    const err = await errorOf(() => h.db.collection('bit_err').updateOne({ _id: 1 }, { $bit: { a: { and: 1 } } }));
    expect([err.code, err.errmsg]).toEqual([
      2,
      'Plan executor error during update :: caused by :: Cannot apply $bit to a value of non-integral type._id: 1 has the field a of non-integer type double',
    ]);
  });
});

describe('positional projection', () => {
  it('findAndModify fields project the matched element', async () => {
    const coll = h.db.collection('proj_fam');
    await coll.insertOne({ _id: 1, a: [{ k: 1, v: 'x' }, { k: 2, v: 'y' }], other: true });
    const r = await h.db.command({ findAndModify: 'proj_fam', query: { 'a.k': 2 }, update: { $set: { seen: true } }, fields: { 'a.$': 1 } });
    expect(r).toEqual({ lastErrorObject: { n: 1, updatedExisting: true }, value: { _id: 1, a: [{ k: 2, v: 'y' }] }, ok: 1 });
  });

  it('a positional projection without an array match is 51246 from the executor', async () => {
    const coll = h.db.collection('proj_fam_err');
    await coll.insertOne({ _id: 1, a: [1, 2] });
    const err = await errorOf(() => h.db.command({ findAndModify: 'proj_fam_err', query: { _id: 1 }, remove: true, fields: { 'a.$': 1 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      51246,
      'Location51246',
      "Plan executor error during findAndModify :: caused by :: positional operator '.$' couldn't find a matching element in the array",
    ]);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('a middle positional is refused at parse time', async () => {
    const err = await errorOf(() => h.db.command({ findAndModify: 'proj_fam', query: {}, remove: true, fields: { 'a.$.b': 1 } }));
    expect([err.code, err.errmsg]).toEqual([
      31394,
      "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and the results will be equivalent.",
    ]);
    expect(await h.db.collection('proj_fam').countDocuments()).toBe(1);
  });
});
