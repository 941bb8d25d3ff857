/** MongoDB 8.0's admin `bulkWrite`: through `client.bulkWrite()` and as a raw command. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Long, MongoClientBulkWriteError, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;
let ns: string;
let ns2: string;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  ns = `${h.db.databaseName}.bw`;
  ns2 = `${h.db.databaseName}.bw2`;
});

afterAll(async () => {
  await h.close();
});

beforeEach(async () => {
  await h.db.collection('bw').deleteMany({});
  await h.db.collection('bw2').deleteMany({});
  await h.db.collection('bw').insertMany([
    { _id: 1, v: 1 },
    { _id: 2, v: 2 },
    { _id: 3, v: 3 },
  ]);
});

/** The MongoClientBulkWriteError `fn` throws (fails the test otherwise). */
async function bulkError(fn: () => Promise<unknown>): Promise<MongoClientBulkWriteError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MongoClientBulkWriteError);
    return err as MongoClientBulkWriteError;
  }
  throw new Error('expected a MongoClientBulkWriteError');
}

function admin(cmd: Document): Promise<Document> {
  return h.client.db('admin').command(cmd, { promoteLongs: false });
}

async function docs(name = 'bw'): Promise<Document[]> {
  return h.db.collection(name).find().sort({ _id: 1 }).toArray();
}

describe('client.bulkWrite()', () => {
  it('mixed operations across namespaces, with verbose results', async () => {
    const result = await h.client.bulkWrite(
      [
        { namespace: ns, name: 'insertOne', document: { _id: 10, v: 10 } },
        { namespace: ns, name: 'updateOne', filter: { _id: 1 }, update: { $set: { v: 99 } } },
        { namespace: ns, name: 'updateMany', filter: { v: { $gte: 2 } }, update: { $inc: { v: 1 } } },
        { namespace: ns, name: 'replaceOne', filter: { _id: 3 }, replacement: { r: true } },
        { namespace: ns2, name: 'updateOne', filter: { _id: 'u' }, update: { $set: { up: 1 } }, upsert: true },
        { namespace: ns, name: 'deleteOne', filter: { _id: 2 } },
        { namespace: ns2, name: 'insertOne', document: { _id: 'i' } },
        { namespace: ns, name: 'deleteMany', filter: { v: { $gt: 1000 } } },
      ],
      { verboseResults: true },
    );
    expect({
      insertedCount: result.insertedCount,
      upsertedCount: result.upsertedCount,
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      deletedCount: result.deletedCount,
    }).toEqual({ insertedCount: 2, upsertedCount: 1, matchedCount: 6, modifiedCount: 6, deletedCount: 1 });
    expect([...result.insertResults!.entries()]).toEqual([
      [0, { insertedId: 10 }],
      [6, { insertedId: 'i' }],
    ]);
    expect([...result.updateResults!.entries()]).toEqual([
      [1, { matchedCount: 1, modifiedCount: 1, didUpsert: false }],
      [2, { matchedCount: 4, modifiedCount: 4, didUpsert: false }],
      [3, { matchedCount: 1, modifiedCount: 1, didUpsert: false }],
      [4, { matchedCount: 1, modifiedCount: 0, didUpsert: true, upsertedId: 'u' }],
    ]);
    expect([...result.deleteResults!.entries()]).toEqual([
      [5, { deletedCount: 1 }],
      [7, { deletedCount: 0 }],
    ]);
    expect(await docs()).toEqual([{ _id: 1, v: 100 }, { _id: 3, r: true }, { _id: 10, v: 11 }]);
    expect(await docs('bw2')).toEqual([{ _id: 'i' }, { _id: 'u', up: 1 }]);
  });

  it('arrayFilters, sort, let and hint on updates', async () => {
    await h.db.collection('bw').insertOne({ _id: 4, a: [1, 5, 9] });
    const result = await h.client.bulkWrite(
      [
        { namespace: ns, name: 'updateOne', filter: { _id: 4 }, update: { $set: { 'a.$[x]': 0 } }, arrayFilters: [{ x: { $gte: 5 } }] },
        { namespace: ns, name: 'updateOne', filter: { v: { $exists: true } }, update: { $set: { first: true } }, sort: { v: -1 } },
        { namespace: ns, name: 'updateMany', filter: { v: { $exists: true }, $expr: { $lte: ['$v', '$$limit'] } }, update: [{ $set: { tag: '$$label' } }] },
        { namespace: ns, name: 'deleteOne', filter: { _id: 3 }, hint: { _id: 1 } },
      ],
      { let: { limit: 2, label: 'small' } },
    );
    expect([result.matchedCount, result.modifiedCount, result.deletedCount]).toEqual([4, 4, 1]);
    expect(await docs()).toEqual([
      { _id: 1, v: 1, tag: 'small' },
      { _id: 2, v: 2, tag: 'small' },
      { _id: 4, a: [1, 0, 0] },
    ]);
  });

  it('an ordered bulk write stops at the first error', async () => {
    const e = await bulkError(() =>
      h.client.bulkWrite([
        { namespace: ns, name: 'insertOne', document: { _id: 20 } },
        { namespace: ns, name: 'insertOne', document: { _id: 1 } },
        { namespace: ns, name: 'insertOne', document: { _id: 21 } },
      ]),
    );
    expect([...e.writeErrors.entries()]).toEqual([
      [1, { code: 11000, message: `E11000 duplicate key error collection: ${ns} index: _id_ dup key: { _id: 1 }` }],
    ]);
    expect(e.partialResult?.insertedCount).toBe(1);
    expect((await docs()).map((d) => d._id)).toEqual([1, 2, 3, 20]);
  });

  it('an unordered bulk write reports every error and runs the rest', async () => {
    const err = await bulkError(() =>
      h.client.bulkWrite(
        [
          { namespace: ns, name: 'updateOne', filter: { _id: 1 }, update: { $set: { 'a.$[i]': 1 } } },
          { namespace: ns, name: 'insertOne', document: { _id: 30 } },
          // @ts-expect-error $inc by a string, on purpose: the server's error is under test
          { namespace: ns, name: 'updateOne', filter: { _id: 2 }, update: { $inc: { v: 'x' } } },
          { namespace: ns, name: 'updateOne', filter: { _id: 2 }, update: { $set: { 'v.$[]': 1 } } },
        ],
        { ordered: false },
      ),
    );
    expect([...err.writeErrors.entries()]).toEqual([
      [0, { code: 2, message: "No array filter found for identifier 'i' in path 'a.$[i]'" }],
      [2, { code: 14, message: 'Cannot increment with non-numeric argument: {v: "x"}' }],
      [3, { code: 2, message: 'Plan executor error during update :: caused by :: Cannot apply array updates to non-array element v: 2' }],
    ]);
    expect((await docs()).map((d) => d._id)).toEqual([1, 2, 3, 30]);
  });
});

describe('the raw command', () => {
  it('reply shape: cursor of results, then the counts', async () => {
    const reply = await admin({
      bulkWrite: 1,
      ops: [
        { insert: 0, document: { _id: 10, v: 10 } },
        { update: 0, filter: { _id: 1 }, updateMods: { $set: { v: 99 } } },
        { delete: 0, filter: { _id: 2 } },
        { update: 1, filter: { _id: 7 }, updateMods: { $set: { v: 7 } }, upsert: true },
        { insert: 1, document: { _id: 20 } },
      ],
      nsInfo: [{ ns }, { ns: ns2 }],
    });
    expect(reply).toEqual({
      cursor: {
        id: Long.ZERO,
        firstBatch: [
          { ok: 1, idx: 0, n: 1 },
          { ok: 1, idx: 1, n: 1, nModified: 1 },
          { ok: 1, idx: 2, n: 1 },
          { ok: 1, idx: 3, n: 1, nModified: 0, upserted: { _id: 7 } },
          { ok: 1, idx: 4, n: 1 },
        ],
        ns: 'admin.$cmd.bulkWrite',
      },
      nErrors: 0,
      nInserted: 2,
      nMatched: 1,
      nModified: 1,
      nUpserted: 1,
      nDeleted: 1,
      ok: 1,
    });
    expect(Object.keys(reply.cursor)).toEqual(['id', 'firstBatch', 'ns']);
  });

  it('errors carry code, errmsg and their extra fields', async () => {
    const reply = await admin({
      bulkWrite: 1,
      ordered: false,
      ops: [
        { insert: 0, document: { _id: 1 } },
        { update: 0, filter: { _id: 1 }, updateMods: { $inc: { v: 'x' } } },
        { update: 0, filter: {}, updateMods: { $set: { z: 1 } }, multi: true, sort: { v: 1 } },
        { delete: 0, filter: { $bogus: 1 } },
        { insert: 1, document: { _id: 5 } },
      ],
      nsInfo: [{ ns }, { ns: `${h.db.databaseName}.system.profile` }],
    });
    expect(reply).toEqual({
      cursor: {
        id: Long.ZERO,
        firstBatch: [
          { ok: 0, idx: 0, code: 11000, errmsg: `E11000 duplicate key error collection: ${ns} index: _id_ dup key: { _id: 1 }`, keyPattern: { _id: 1 }, keyValue: { _id: 1 }, n: 0 },
          { ok: 0, idx: 1, code: 14, errmsg: 'Cannot increment with non-numeric argument: {v: "x"}', n: 0, nModified: 0 },
          { ok: 0, idx: 2, code: 9, errmsg: 'Cannot specify sort with multi=true', n: 0, nModified: 0 },
          { ok: 0, idx: 3, code: 2, errmsg: 'unknown top level operator: $bogus. If you have a field name that starts with a \'$\' symbol, consider using $getField or $setField.', n: 0 },
          { ok: 0, idx: 4, code: 73, errmsg: `cannot write to ${h.db.databaseName}.system.profile`, n: 0 },
        ],
        ns: 'admin.$cmd.bulkWrite',
      },
      nErrors: 5,
      nInserted: 0,
      nMatched: 0,
      nModified: 0,
      nUpserted: 0,
      nDeleted: 0,
      ok: 1,
    });
  });

  it('errorsOnly leaves successes out; ordered stops after an error', async () => {
    const reply = await admin({
      bulkWrite: 1,
      errorsOnly: true,
      ops: [{ insert: 0, document: { _id: 50 } }, { insert: 0, document: { _id: 50 } }, { insert: 0, document: { _id: 51 } }],
      nsInfo: [{ ns }],
    });
    expect(reply.cursor.firstBatch).toEqual([
      { ok: 0, idx: 1, code: 11000, errmsg: `E11000 duplicate key error collection: ${ns} index: _id_ dup key: { _id: 50 }`, keyPattern: { _id: 1 }, keyValue: { _id: 50 }, n: 0 },
    ]);
    expect([reply.nInserted, reply.nErrors]).toEqual([1, 1]);
    expect((await docs()).map((d) => d._id)).toEqual([1, 2, 3, 50]);
  });

  it('cursor.batchSize leaves the rest for getMore', async () => {
    const reply = await admin({
      bulkWrite: 1,
      ops: [{ insert: 0, document: { _id: 60 } }, { insert: 0, document: { _id: 61 } }, { insert: 0, document: { _id: 62 } }],
      nsInfo: [{ ns }],
      cursor: { batchSize: 1 },
    });
    expect(reply.cursor.firstBatch).toEqual([{ ok: 1, idx: 0, n: 1 }]);
    expect(reply.cursor.id).not.toEqual(Long.ZERO);
    const more = await admin({ getMore: reply.cursor.id, collection: '$cmd.bulkWrite' });
    expect(more.cursor.nextBatch).toEqual([
      { ok: 1, idx: 1, n: 1 },
      { ok: 1, idx: 2, n: 1 },
    ]);
    expect(more.cursor.id).toEqual(Long.ZERO);
  });

  it('update options: arrayFilters, constants, upsertSupplied', async () => {
    await h.db.collection('bw').insertOne({ _id: 4, a: [1, 5] });
    const reply = await admin({
      bulkWrite: 1,
      ops: [
        { update: 0, filter: { _id: 4 }, updateMods: { $set: { 'a.$[x]': 0 } }, arrayFilters: [{ x: 5 }] },
        { update: 0, filter: { _id: 1 }, updateMods: [{ $set: { k: '$$k' } }], constants: { k: 'c' } },
        { update: 0, filter: { _id: 8 }, updateMods: [{ $set: { s: 1 } }], upsert: true, upsertSupplied: true, constants: { new: { s: 'supplied' } } },
      ],
      nsInfo: [{ ns }],
    });
    expect(reply.cursor.firstBatch).toEqual([
      { ok: 1, idx: 0, n: 1, nModified: 1 },
      { ok: 1, idx: 1, n: 1, nModified: 1 },
      { ok: 1, idx: 2, n: 1, nModified: 0, upserted: { _id: 8 } },
    ]);
    expect(await docs()).toEqual([{ _id: 1, v: 1, k: 'c' }, { _id: 2, v: 2 }, { _id: 3, v: 3 }, { _id: 4, a: [1, 0] }, { _id: 8, s: 'supplied' }]);
  });

  const rejections: Array<[string, Document, number, string]> = [
    ['empty ops', { ops: [], nsInfo: [{ ns: 'x.y' }] }, 16, 'Write batch sizes must be between 1 and 100000. Got 0 operations.'],
    ['missing ops', { nsInfo: [{ ns: 'x.y' }] }, 40414, "BSON field 'bulkWrite.ops' is missing but a required field"],
    ['missing nsInfo', { ops: [{ insert: 0, document: {} }] }, 40414, "BSON field 'bulkWrite.nsInfo' is missing but a required field"],
    ['null nsInfo', { ops: [{ insert: 0, document: {} }], nsInfo: null }, 40414, "BSON field 'bulkWrite.nsInfo' is missing but a required field"],
    ['nsInfo of a wrong type before the batch size', { ops: [], nsInfo: 5 }, 14, "BSON field 'bulkWrite.nsInfo' is the wrong type 'int', expected type 'array'"],
    ['an nsInfo entry of a wrong type', { ops: [{ insert: 0, document: {} }], nsInfo: [5] }, 14, "BSON field 'bulkWrite.nsInfo.0' is the wrong type 'int', expected type 'object'"],
    ['an unknown nsInfo field', { ops: [{ insert: 0, document: {} }], nsInfo: [{ x: 1 }] }, 40415, "BSON field 'bulkWrite.nsInfo.x' is an unknown field."],
    ['a namespace without a collection', { ops: [{ insert: 0, document: {} }], nsInfo: [{ ns: 'nodot' }] }, 73, "Invalid namespace specified for bulkWrite: 'nodot'"],
    ['an empty namespace', { ops: [{ insert: 0, document: {} }], nsInfo: [{ ns: '.' }] }, 73, "Invalid namespace specified for bulkWrite: ''"],
    ['a negative namespace index', { ops: [{ insert: -1, document: {} }], nsInfo: [{ ns: 'x.y' }] }, 2, "BSON field 'insert' value must be >= 0, actual value '-1'"],
    ['an index past nsInfo', { ops: [{ insert: 5, document: { _id: 1 } }], nsInfo: [{ ns: 'x.y' }] }, 2, 'BulkWrite ops entry { insert: 5, document: { _id: 1 } } has an invalid nsInfo index.'],
    ['a namespace index of a wrong type', { ops: [{ insert: '0', document: {} }], nsInfo: [{ ns: 'x.y' }] }, 14, "BSON field 'bulkWrite.ops.insert' is the wrong type 'string', expected types '[long, int, decimal, double]'"],
    ['an unknown op kind', { ops: [{ frobnicate: 0, document: {} }], nsInfo: [{ ns: 'x.y' }] }, 40415, "BSON field 'bulkWrite.frobnicate' is an unknown field."],
    ['an insert without a document', { ops: [{ insert: 0 }], nsInfo: [{ ns: 'x.y' }] }, 40414, "BSON field 'bulkWrite.ops.document' is missing but a required field"],
    ['an update without updateMods', { ops: [{ update: 0, filter: {} }], nsInfo: [{ ns: 'x.y' }] }, 40414, "BSON field 'bulkWrite.ops.updateMods' is missing but a required field"],
    ['an update without a filter', { ops: [{ update: 0, updateMods: { $set: { a: 1 } } }], nsInfo: [{ ns: 'x.y' }] }, 40414, "BSON field 'bulkWrite.ops.filter' is missing but a required field"],
    ['a delete without a filter', { ops: [{ delete: 0 }], nsInfo: [{ ns: 'x.y' }] }, 40414, "BSON field 'bulkWrite.ops.filter' is missing but a required field"],
    ['a document of a wrong type', { ops: [{ insert: 0, document: 5 }], nsInfo: [{ ns: 'x.y' }] }, 14, "BSON field 'bulkWrite.ops.document' is the wrong type 'int', expected type 'object'"],
    ['an unknown op field', { ops: [{ insert: 0, document: {}, extra: 1 }], nsInfo: [{ ns: 'x.y' }] }, 40415, "BSON field 'bulkWrite.ops.extra' is an unknown field."],
    ['multi of a wrong type', { ops: [{ delete: 0, filter: {}, multi: 1 }], nsInfo: [{ ns: 'x.y' }] }, 14, "BSON field 'bulkWrite.ops.multi' is the wrong type 'int', expected type 'bool'"],
    ['an unknown command field', { ops: [{ insert: 0, document: {} }], nsInfo: [{ ns: 'x.y' }], fooField: 0 }, 40415, "BSON field 'bulkWrite.fooField' is an unknown field."],
    ['ordered of a wrong type', { ops: [{ insert: 0, document: {} }], nsInfo: [{ ns: 'x.y' }], ordered: 1 }, 14, "BSON field 'bulkWrite.ordered' is the wrong type 'int', expected type 'bool'"],
  ];
  for (const [name, extra, code, message] of rejections) {
    it(name, async () => {
      const err = await errorOf(() => admin({ bulkWrite: 1, ...extra }));
      expect([err.code, err.errmsg]).toEqual([code, message]);
      expect(await h.client.db('x').collection('y').countDocuments()).toBe(0);
    });
  }

  it('is admin-only', async () => {
    const err = await errorOf(() => h.db.command({ bulkWrite: 1, ops: [{ insert: 0, document: {} }], nsInfo: [{ ns }] }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([13, 'Unauthorized', 'bulkWrite may only be run against the admin database.']);
  });
});
