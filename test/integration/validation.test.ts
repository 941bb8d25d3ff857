/**
 * Document validation through the official driver: validator options on create/collMod and
 * how listCollections shows them, mongod's refusals, and every write path (insert, update with
 * operators, replacement and pipeline, upsert, findAndModify, driver bulkWrite, client.bulkWrite,
 * $out/$merge) failing with 121 and errInfo; bypassDocumentValidation; validationLevel moderate
 * and off; validationAction warn and errorAndLog (the log line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { startHarness, errorOf, type Harness, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
let ns: string;

beforeAll(async () => {
  h = await startHarness();
  db = h.db;
  ns = db.databaseName;
});
afterAll(async () => {
  await h.close();
});

async function optionsOf(name: string): Promise<Document> {
  const [entry] = await db.listCollections({ name }).toArray();
  return (entry as Document).options as Document;
}

const qtyDetails = (value: number) => ({
  operatorName: '$gte',
  specifiedAs: { qty: { $gte: 0 } },
  reason: 'comparison failed',
  consideredValue: value,
});

describe('validator options', () => {
  it('create stores them as mongod lists them; an empty validator is none', async () => {
    await db.createCollection('o1', { validationAction: 'warn', validator: { a: { $exists: true } } });
    expect(await optionsOf('o1')).toEqual({ validator: { a: { $exists: true } }, validationAction: 'warn' });
    await db.createCollection('o2', { validator: {} });
    expect(await optionsOf('o2')).toEqual({});
    // The same options again are a no-op; others are 48.
    expect(await db.command({ create: 'o1', validator: { a: { $exists: true } }, validationAction: 'warn' })).toEqual({ ok: 1 });
    const err = await errorOf(() => db.command({ create: 'o1', validator: { a: 1 } }));
    expect([err.code, err.errmsg]).toEqual([48, `Collection ${ns}.o1 already exists.`]);
  });

  it('collMod writes the level and the action together; {} removes the validator', async () => {
    await db.createCollection('o3', { validator: { a: 1 } });
    expect(await db.command({ collMod: 'o3', validationAction: 'warn' })).toEqual({ ok: 1 });
    expect(await optionsOf('o3')).toEqual({ validator: { a: 1 }, validationLevel: 'strict', validationAction: 'warn' });
    await db.command({ collMod: 'o3', validator: {} });
    expect(await optionsOf('o3')).toEqual({ validationLevel: 'strict', validationAction: 'warn' });
    await db.command({ collMod: 'o3', validator: { b: { $type: 'int' } }, validationLevel: 'moderate' });
    expect(await optionsOf('o3')).toEqual({ validator: { b: { $type: 'int' } }, validationLevel: 'moderate', validationAction: 'warn' });
    const missing = await errorOf(() => db.command({ collMod: 'nope', validator: {} }));
    expect([missing.code, missing.codeName]).toEqual([26, 'NamespaceNotFound']);
  });

  it.each([
    [{ create: 'x', validator: { a: 1 }, validationLevel: 'sometimes' }, 2, "Enumeration value 'sometimes' for field 'create.validationLevel' is not a valid value."],
    [{ create: 'x', validator: { a: 1 }, validationAction: 'shout' }, 2, "Enumeration value 'shout' for field 'create.validationAction' is not a valid value."],
    [{ create: 'x', validator: { $where: 'true' } }, 2, '$where is not allowed in this context'],
    [{ create: 'x', validator: { $or: [{ a: 1 }, { $text: { $search: 'a' } }] } }, 2, '$text is not allowed in this context'],
    [
      { create: 'x', validator: { loc: { $near: [0, 0] } } },
      5626500,
      '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting geospatial data. If you do not need sort, consider using $geoWithin instead. Check out https://dochub.mongodb.org/core/near-sort-operation and https://dochub.mongodb.org/core/nearSphere-sort-operationfor more details.',
    ],
    [{ create: 'x', validator: { a: { $bogus: 1 } } }, 2, 'unknown operator: $bogus'],
    [{ create: 'x', validator: 5 }, 14, "BSON field 'create.validator' is the wrong type 'int', expected type 'object'"],
    [{ create: 'system.js', validator: { a: 1 } }, 72, 'Document validators not allowed on system collection NS.system.js'],
    [{ collMod: 'o1', validationLevel: 'nope' }, 2, "Enumeration value 'nope' for field 'collMod.validationLevel' is not a valid value."],
  ])('%j fails with %i', async (cmd, code, errmsg) => {
    const err = await errorOf(() => db.command(cmd));
    expect([err.code, err.errmsg]).toEqual([code, errmsg.replace('NS', ns)]);
    expect(await db.listCollections({ name: 'x' }).toArray()).toEqual([]);
  });
});

describe('every write path checks the document', () => {
  beforeAll(async () => {
    await db.createCollection('q', { validator: { qty: { $gte: 0 } } });
    await db.collection('q').insertOne({ _id: 1, qty: 5 });
  });

  it('insert: an ordered batch stops at the failing document, with errInfo', async () => {
    const reply = await db.command({ insert: 'q', documents: [{ _id: 10, qty: 1 }, { _id: 11, qty: -1 }, { _id: 12, qty: 1 }] });
    expect(reply).toEqual({
      n: 1,
      writeErrors: [{ index: 1, code: 121, errmsg: 'Document failed validation', errInfo: { failingDocumentId: 11, details: qtyDetails(-1) } }],
      ok: 1,
    });
    const unordered = await db.command({ insert: 'q', ordered: false, documents: [{ _id: 20, qty: 1 }, { qty: -2 }, { _id: 22, qty: 1 }] });
    expect(unordered.n).toBe(2);
    expect(unordered.writeErrors[0].errInfo.failingDocumentId).toBeTruthy(); // the generated ObjectId
    expect(unordered.writeErrors[0].errInfo.details).toEqual(qtyDetails(-2));
    expect(await db.collection('q').countDocuments()).toBe(4);
  });

  it('insertOne through the driver: MongoServerError with errInfo', async () => {
    const err = await db.collection('q').insertOne({ _id: 30, qty: -1 }).catch((e) => e);
    expect([err.code, err.errInfo]).toEqual([121, { failingDocumentId: 30, details: qtyDetails(-1) }]);
  });

  it('update: operators, replacement, pipeline and upsert', async () => {
    const cases: Array<[Document, unknown]> = [
      [{ q: { _id: 1 }, u: { $inc: { qty: -10 } } }, 1],
      [{ q: { _id: 1 }, u: { qty: -1 } }, 1],
      [{ q: { _id: 1 }, u: [{ $set: { qty: { $subtract: ['$qty', 100] } } }] }, 1],
      [{ q: { _id: 99 }, u: { $set: { qty: -4 } }, upsert: true }, 99],
    ];
    for (const [statement, id] of cases) {
      const reply = await db.command({ update: 'q', updates: [statement] });
      expect(reply.n).toBe(0);
      expect(reply.nModified).toBe(0);
      expect(reply.writeErrors).toHaveLength(1);
      const e = reply.writeErrors[0];
      expect([e.index, e.code, e.errmsg, e.errInfo.failingDocumentId]).toEqual([0, 121, 'Plan executor error during update :: caused by :: Document failed validation', id]);
      expect(e.errInfo.details.operatorName).toBe('$gte');
    }
    expect(await db.collection('q').findOne({ _id: 1 })).toEqual({ _id: 1, qty: 5 });
    expect(await db.collection('q').findOne({ _id: 99 })).toBeNull();
    // An update that leaves the document valid goes through.
    expect((await db.collection('q').updateOne({ _id: 1 }, { $inc: { qty: 1 } })).modifiedCount).toBe(1);
  });

  it('findAndModify: a command error 121 with errInfo', async () => {
    const err = await errorOf(() => db.collection('q').findOneAndUpdate({ _id: 1 }, { $set: { qty: -1 } }));
    expect([err.code, err.codeName, err.errmsg, err.errInfo]).toEqual([
      121,
      'DocumentValidationFailure',
      'Plan executor error during findAndModify :: caused by :: Document failed validation',
      { failingDocumentId: 1, details: qtyDetails(-1) },
    ]);
    const upsert = await errorOf(() => db.collection('q').findOneAndReplace({ _id: 77 }, { qty: -7 }, { upsert: true }));
    expect([upsert.code, (upsert.errInfo as Document).failingDocumentId]).toEqual([121, 77]);
  });

  it('driver bulkWrite and client.bulkWrite', async () => {
    const bulk = await db
      .collection('q')
      .bulkWrite([{ insertOne: { document: { _id: 40, qty: -1 } } }, { updateOne: { filter: { _id: 1 }, update: { $set: { qty: -3 } } } }], { ordered: false })
      .catch((e) => e);
    expect(bulk.writeErrors.map((e: { index: number; code: number; errInfo: Document }) => [e.index, e.code, e.errInfo.failingDocumentId])).toEqual([
      [0, 121, 40],
      [1, 121, 1],
    ]);
    const client = await h.client
      .bulkWrite([{ namespace: `${ns}.q`, name: 'insertOne', document: { _id: 41, qty: -1 } }], { verboseResults: true })
      .catch((e) => e);
    const [failure] = [...client.writeErrors.values()];
    expect([failure.code, failure.message]).toEqual([121, 'Document failed validation']);
    expect(await db.collection('q').countDocuments({ _id: { $in: [40, 41] } })).toBe(0);
  });

  it('$out and $merge into a validated collection', async () => {
    await db.collection('raw').insertMany([{ _id: 1, qty: -1 }]);
    for (const stage of [{ $out: 'q' }, { $merge: { into: 'q' } }]) {
      const err = await errorOf(() => db.collection('raw').aggregate([stage]).toArray());
      expect([err.code, (err.errInfo as Document).failingDocumentId]).toEqual([121, 1]);
    }
    expect(await db.collection('q').findOne({ _id: 1 })).toEqual({ _id: 1, qty: 6 });
  });

  it('bypassDocumentValidation: true skips the check everywhere', async () => {
    await db.collection('q').insertOne({ _id: 50, qty: -1 }, { bypassDocumentValidation: true });
    await db.collection('q').updateOne({ _id: 50 }, { $set: { qty: -2 } }, { bypassDocumentValidation: true });
    await db.collection('q').findOneAndUpdate({ _id: 50 }, { $set: { qty: -3 } }, { bypassDocumentValidation: true });
    await db.collection('q').bulkWrite([{ insertOne: { document: { _id: 51, qty: -1 } } }], { bypassDocumentValidation: true });
    await db.collection('raw').aggregate([{ $match: { _id: 1 } }, { $set: { _id: 52 } }, { $merge: { into: 'q' } }], { bypassDocumentValidation: true }).toArray();
    expect(await db.collection('q').find({ _id: { $in: [50, 51, 52] } }).toArray()).toEqual([
      { _id: 50, qty: -3 },
      { _id: 51, qty: -1 },
      { _id: 52, qty: -1 },
    ]);
  });
});

describe('validationLevel and validationAction', () => {
  it('moderate: updates of documents that already fail pass; valid ones stay valid; inserts are checked', async () => {
    const coll = db.collection('mod');
    await coll.insertMany([
      { _id: 1, qty: -1 },
      { _id: 2, qty: 1 },
    ]);
    await db.command({ collMod: 'mod', validator: { qty: { $gte: 0 } }, validationLevel: 'moderate' });
    expect((await coll.updateOne({ _id: 1 }, { $set: { qty: -5 } })).modifiedCount).toBe(1);
    const err = await coll.updateOne({ _id: 2 }, { $set: { qty: -5 } }).catch((e) => e);
    expect([err.code, err.errInfo.failingDocumentId]).toEqual([121, 2]);
    const insert = await coll.insertOne({ _id: 3, qty: -1 }).catch((e) => e);
    expect(insert.code).toBe(121);
    expect(await coll.find().toArray()).toEqual([
      { _id: 1, qty: -5 },
      { _id: 2, qty: 1 },
    ]);
  });

  it('off: nothing is checked', async () => {
    await db.createCollection('off', { validator: { qty: { $gte: 0 } }, validationLevel: 'off' });
    await db.collection('off').insertOne({ _id: 1, qty: -1 });
    expect(await db.collection('off').countDocuments()).toBe(1);
  });

  it('warn: the write happens and a warning is logged; errorAndLog refuses and logs', async () => {
    await db.createCollection('warned', { validator: { qty: { $gte: 0 } }, validationAction: 'warn' });
    await db.collection('warned').insertOne({ _id: 1, qty: -1 });
    expect(await db.collection('warned').findOne()).toEqual({ _id: 1, qty: -1 });
    const log = await h.client.db('admin').command({ getLog: 'global' });
    const lines = (log.log as string[]).map((l) => JSON.parse(l) as Document).filter((l) => l.namespace === `${ns}.warned`);
    expect(lines).toHaveLength(1);
    expect([lines[0]!.level, lines[0]!.msg, lines[0]!.document, lines[0]!.errInfo]).toEqual([
      40,
      'Document would fail validation',
      { _id: 1, qty: -1 },
      { failingDocumentId: 1, details: qtyDetails(-1) },
    ]);
    await db.command({ collMod: 'warned', validationAction: 'errorAndLog' });
    const err = await db.collection('warned').insertOne({ _id: 2, qty: -2 }).catch((e) => e);
    expect(err.code).toBe(121);
    const after = await h.client.db('admin').command({ getLog: 'global' });
    const logged = (after.log as string[]).map((l) => JSON.parse(l) as Document).filter((l) => l.namespace === `${ns}.warned`);
    expect(logged.map((l) => [l.msg, (l.errInfo as Document).failingDocumentId])).toEqual([
      ['Document would fail validation', 1],
      ['Document failed validation', 2],
    ]);
  });
});

describe('errInfo details', () => {
  let n = 0;
  async function detailsFor(validator: Document, doc: Document): Promise<Document> {
    const name = `d${n++}`;
    await db.createCollection(name, { validator });
    const err = await db.collection(name).insertOne(doc).catch((e) => e);
    expect(err.code).toBe(121);
    return err.errInfo.details as Document;
  }

  it('query operators', async () => {
    expect(await detailsFor({ x: { $type: 'string' } }, { _id: 1, x: 1 })).toEqual({
      operatorName: '$type',
      specifiedAs: { x: { $type: 'string' } },
      reason: 'type did not match',
      consideredValue: 1,
      consideredType: 'int',
    });
    expect(await detailsFor({ x: { $type: 'string' } }, { _id: 1 })).toEqual({ operatorName: '$type', specifiedAs: { x: { $type: 'string' } }, reason: 'field was missing' });
    expect(await detailsFor({ a: { $gt: 1 }, b: { $exists: true } }, { _id: 1, a: 0 })).toEqual({
      operatorName: '$and',
      clausesNotSatisfied: [
        { index: 0, details: { operatorName: '$gt', specifiedAs: { a: { $gt: 1 } }, reason: 'comparison failed', consideredValue: 0 } },
        { index: 1, details: { operatorName: '$exists', specifiedAs: { b: { $exists: true } }, reason: 'path does not exist' } },
      ],
    });
    expect(await detailsFor({ $or: [{ a: 1 }, { b: { $in: [1, 2] } }] }, { _id: 1, a: 2, b: [3, 4] })).toEqual({
      operatorName: '$or',
      clausesNotSatisfied: [
        { index: 0, details: { operatorName: '$eq', specifiedAs: { a: 1 }, reason: 'comparison failed', consideredValue: 2 } },
        { index: 1, details: { operatorName: '$in', specifiedAs: { b: { $in: [1, 2] } }, reason: 'no matching value found in array', consideredValues: [3, 4] } },
      ],
    });
    expect(await detailsFor({ a: { $not: { $gt: 5 } } }, { _id: 1, a: 7 })).toEqual({
      operatorName: '$not',
      details: { operatorName: '$gt', specifiedAs: { a: { $gt: 5 } }, reason: 'comparison succeeded', consideredValue: 7 },
    });
    expect(await detailsFor({ $expr: { $gt: ['$a', '$b'] } }, { _id: 1, a: 1, b: 2 })).toEqual({
      operatorName: '$expr',
      specifiedAs: { $expr: { $gt: ['$a', '$b'] } },
      reason: 'expression did not match',
      expressionResult: false,
    });
  });

  it('$jsonSchema: properties, required, bsonType, items, additionalProperties', async () => {
    const schema = {
      bsonType: 'object',
      required: ['name', 'qty', 'tags'],
      additionalProperties: false,
      properties: {
        _id: {},
        name: { bsonType: 'string', description: 'must be a string' },
        qty: { bsonType: 'int', minimum: 0 },
        tags: { bsonType: 'array', items: { bsonType: 'string' } },
      },
    };
    expect(await detailsFor({ $jsonSchema: schema }, { _id: 1, name: 5, qty: -3, extra: true })).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'properties',
          propertiesNotSatisfied: [
            {
              propertyName: 'name',
              description: 'must be a string',
              details: [{ operatorName: 'bsonType', specifiedAs: { bsonType: 'string' }, reason: 'type did not match', consideredValue: 5, consideredType: 'int' }],
            },
            { propertyName: 'qty', details: [{ operatorName: 'minimum', specifiedAs: { minimum: 0 }, reason: 'comparison failed', consideredValue: -3 }] },
          ],
        },
        { operatorName: 'additionalProperties', specifiedAs: { additionalProperties: false }, additionalProperties: ['extra'] },
        { operatorName: 'required', specifiedAs: { required: ['name', 'qty', 'tags'] }, missingProperties: ['tags'] },
      ],
    });
    expect(await detailsFor({ $jsonSchema: schema }, { _id: 2, name: 'n', qty: 1, tags: ['a', 2] })).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'properties',
          propertiesNotSatisfied: [
            {
              propertyName: 'tags',
              details: [
                {
                  operatorName: 'items',
                  reason: 'At least one item did not match the sub-schema',
                  itemIndex: 1,
                  details: [{ operatorName: 'bsonType', specifiedAs: { bsonType: 'string' }, reason: 'type did not match', consideredValue: 2, consideredType: 'int' }],
                },
              ],
            },
          ],
        },
      ],
    });
  });
});
