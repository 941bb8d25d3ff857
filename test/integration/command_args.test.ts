/**
 * Argument checks of the CRUD and catalog commands, through the driver's `db.command()`: each
 * bad command gets mongod 8's code, codeName and errmsg (IDL type errors, validators, unknown
 * and missing fields, the generic maxTimeMS/readConcern), checked in field order, and nothing
 * runs. Then `hint` on count, distinct, delete, update, findAndModify and bulkWrite: the hinted
 * index is the one the plan scans (explain shows it; a sparse index changes what is matched).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, MongoClientBulkWriteError, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ compat: 'mongodb' });
  await h.db.collection('c').insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
  await h.db.collection('c').createIndex({ a: 1 });
});

afterAll(async () => {
  await h.close();
});

/** One table row: a command, then the error it gets. */
type Case = [name: string, cmd: Document, code: number, codeName: string, errmsg: string];

const NUMBERS = "'[long, int, decimal, double']";
const SAFE_BOOL = "'[bool, long, int, decimal, double']";

function runCases(cases: Case[], db = () => h.db): void {
  for (const [name, cmd, code, codeName, errmsg] of cases) {
    it(name, async () => {
      const err = await errorOf(() => db().command(cmd));
      expect([err.code, err.codeName, err.errmsg]).toEqual([code, codeName, errmsg]);
    });
  }
}

describe('find', () => {
  runCases([
    ['sort of a wrong type', { find: 'c', sort: 1 }, 14, 'TypeMismatch', 'Expected field sortto be of type object'],
    ['filter of a wrong type', { find: 'c', filter: 'x' }, 14, 'TypeMismatch', 'Expected field filterto be of type object'],
    ['a null filter', { find: 'c', filter: null }, 14, 'TypeMismatch', 'Expected field filterto be of type object'],
    ['projection as an array', { find: 'c', projection: [] }, 14, 'TypeMismatch', 'Expected field projectionto be of type object'],
    ['collation as a string', { find: 'c', collation: 'fr' }, 14, 'TypeMismatch', 'Expected field collationto be of type object'],
    ['min as a number', { find: 'c', min: 1 }, 14, 'TypeMismatch', 'Expected field minto be of type object'],
    ['a negative limit', { find: 'c', limit: -1 }, 2, 'BadValue', "BSON field 'limit' value must be >= 0, actual value '-1'"],
    ['a negative batchSize', { find: 'c', batchSize: -1 }, 2, 'BadValue', "BSON field 'batchSize' value must be >= 0, actual value '-1'"],
    ['a negative skip', { find: 'c', skip: Long.fromNumber(-2) }, 2, 'BadValue', "BSON field 'skip' value must be >= 0, actual value '-2'"],
    ['a negative fractional limit is truncated', { find: 'c', limit: -1.5 }, 2, 'BadValue', "BSON field 'limit' value must be >= 0, actual value '-1'"],
    ['limit as a string', { find: 'c', limit: 'x' }, 14, 'TypeMismatch', `BSON field 'FindCommandRequest.limit' is the wrong type 'string', expected types ${NUMBERS}`],
    ['batchSize as a bool', { find: 'c', batchSize: true }, 14, 'TypeMismatch', `BSON field 'FindCommandRequest.batchSize' is the wrong type 'bool', expected types ${NUMBERS}`],
    ['singleBatch as a number', { find: 'c', singleBatch: 1 }, 14, 'TypeMismatch', "Field 'singleBatch' should be a boolean value, but found: int"],
    ['allowDiskUse as a string', { find: 'c', allowDiskUse: 'yes' }, 14, 'TypeMismatch', "Field 'allowDiskUse' should be a boolean value, but found: string"],
    ['a null noCursorTimeout', { find: 'c', noCursorTimeout: null }, 14, 'TypeMismatch', "Field 'noCursorTimeout' should be a boolean value, but found: null"],
    ['oplogReplay as a number', { find: 'c', oplogReplay: 1 }, 14, 'TypeMismatch', 'Expected field oplogReplayto be of type object'],
    ['hint as a number', { find: 'c', hint: 1 }, 9, 'FailedToParse', 'Hint must be a string or an object'],
    ['let as a number', { find: 'c', let: 1 }, 14, 'TypeMismatch', "BSON field 'FindCommandRequest.let' is the wrong type 'int', expected type 'object'"],
    ['readConcern as a string', { find: 'c', readConcern: 'majority' }, 14, 'TypeMismatch', "BSON field 'FindCommandRequest.readConcern' is the wrong type 'string', expected type 'object'"],
    ['a negative maxTimeMS', { find: 'c', maxTimeMS: -1 }, 2, 'BadValue', '-1 value for maxTimeMS is out of range [0, 2147483647]'],
    ['a fractional maxTimeMS', { find: 'c', maxTimeMS: 1.5 }, 9, 'FailedToParse', 'Expected an integer: maxTimeMS: 1.5'],
    ['maxTimeMS beyond int32', { find: 'c', maxTimeMS: Long.fromNumber(2147483648) }, 2, 'BadValue', '2147483648 value for maxTimeMS is out of range [0, 2147483647]'],
    ['maxTimeMS as a string', { find: 'c', maxTimeMS: 'x' }, 14, 'TypeMismatch', `BSON field 'FindCommandRequest.maxTimeMS' is the wrong type 'string', expected types ${NUMBERS}`],
    ['an infinite maxTimeMS', { find: 'c', maxTimeMS: Infinity }, 9, 'FailedToParse', 'Cannot represent as a 64-bit integer: maxTimeMS: inf.0'],
    ['an unknown field', { find: 'c', bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'FindCommandRequest.bogus' is an unknown field."],
    ['the first bad field wins (limit)', { find: 'c', limit: -1, sort: 1 }, 2, 'BadValue', "BSON field 'limit' value must be >= 0, actual value '-1'"],
    ['the first bad field wins (sort)', { find: 'c', sort: 1, limit: -1 }, 14, 'TypeMismatch', 'Expected field sortto be of type object'],
    ['field errors come before maxTimeMS', { find: 'c', maxTimeMS: 1.5, bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'FindCommandRequest.bogus' is an unknown field."],
  ]);

  it('accepts any comment, null optional fields and every numeric type', async () => {
    const reply = await h.db.command({
      find: 'c',
      comment: { any: ['thing', 1] },
      let: null,
      skip: new Double(0),
      limit: Long.fromNumber(5),
      batchSize: Decimal128.fromString('10'),
      maxTimeMS: new Double(1000),
      singleBatch: true,
      sort: { _id: 1 },
    });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
  });
});

describe('getMore and killCursors', () => {
  let cursorId: Long;
  beforeEach(async () => {
    const reply = await h.db.command({ find: 'c', batchSize: 0 }, { promoteLongs: false });
    cursorId = reply.cursor.id as Long;
  });

  it('a bad getMore is refused, and the cursor survives', async () => {
    const cases: Array<[Document, number, string, string]> = [
      [{ getMore: 1, collection: 'c' }, 14, 'TypeMismatch', "BSON field 'getMore.getMore' is the wrong type 'int', expected type 'long'"],
      [{ getMore: cursorId, collection: 1 }, 14, 'TypeMismatch', "BSON field 'getMore.collection' is the wrong type 'int', expected type 'string'"],
      [{ getMore: cursorId, collection: '' }, 73, 'InvalidNamespace', 'Collection names cannot be empty'],
      [{ getMore: cursorId }, 40414, 'IDLFailedToParse', "BSON field 'getMore.collection' is missing but a required field"],
      [{ getMore: cursorId, collection: 'c', batchSize: -1 }, 2, 'BadValue', "BSON field 'batchSize' value must be >= 0, actual value '-1'"],
      [{ getMore: cursorId, collection: 'c', maxTimeMS: 'x' }, 14, 'TypeMismatch', `BSON field 'getMore.maxTimeMS' is the wrong type 'string', expected types ${NUMBERS}`],
      [{ getMore: cursorId, collection: 'c', maxTimeMS: -5 }, 2, 'BadValue', '-5 value for maxTimeMS is out of range [0, 2147483647]'],
      [{ getMore: cursorId, collection: 'c', maxTimeMS: 10 }, 2, 'BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor'],
      [{ getMore: cursorId, collection: 'c', bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'getMore.bogus' is an unknown field."],
    ];
    for (const [cmd, code, codeName, errmsg] of cases) {
      const err = await errorOf(() => h.db.command(cmd));
      expect([err.code, err.codeName, err.errmsg]).toEqual([code, codeName, errmsg]);
    }
    const reply = await h.db.command({ getMore: cursorId, collection: 'c' });
    expect(reply.cursor.nextBatch).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
  });

  runCases([
    ['killCursors with cursors not an array', { killCursors: 'c', cursors: 'x' }, 14, 'TypeMismatch', "BSON field 'killCursors.cursors' is the wrong type 'string', expected type 'array'"],
    ['killCursors with an int id', { killCursors: 'c', cursors: [1] }, 14, 'TypeMismatch', "BSON field 'killCursors.cursors.0' is the wrong type 'int', expected type 'long'"],
    ['killCursors without cursors', { killCursors: 'c' }, 40414, 'IDLFailedToParse', "BSON field 'killCursors.cursors' is missing but a required field"],
  ]);
});

describe('count and distinct', () => {
  runCases([
    ['count query as a number', { count: 'c', query: 1 }, 14, 'TypeMismatch', "BSON field 'count.query' is the wrong type 'int', expected type 'object'"],
    ['count limit as a string', { count: 'c', limit: 'x' }, 2, 'BadValue', 'limit value is not a valid number'],
    ['count limit fractional', { count: 'c', limit: 1.5 }, 9, 'FailedToParse', 'Expected an integer: limit: 1.5'],
    ['count skip negative', { count: 'c', skip: -1 }, 2, 'BadValue', "BSON field 'skip' value must be >= 0, actual value '-1'"],
    ['count hint as a bool', { count: 'c', hint: true }, 9, 'FailedToParse', 'Hint must be a string or an object'],
    ['count maxTimeMS negative', { count: 'c', maxTimeMS: -1 }, 2, 'BadValue', '-1 value for maxTimeMS is out of range [0, 2147483647]'],
    ['count mirrored as a number', { count: 'c', mirrored: 1 }, 14, 'TypeMismatch', "Field 'mirrored' should be a boolean value, but found: int"],
    ['distinct key as a number', { distinct: 'c', key: 1 }, 14, 'TypeMismatch', "BSON field 'distinct.key' is the wrong type 'int', expected type 'string'"],
    ['distinct without key', { distinct: 'c' }, 40414, 'IDLFailedToParse', "BSON field 'distinct.key' is missing but a required field"],
    ['distinct query as an array', { distinct: 'c', key: 'a', query: [] }, 14, 'TypeMismatch', "BSON field 'distinct.query' is the wrong type 'array', expected type 'object'"],
    ['distinct hint as a number', { distinct: 'c', key: 'a', hint: 5 }, 9, 'FailedToParse', 'Hint must be a string or an object'],
    ['distinct readConcern as a string', { distinct: 'c', key: 'a', readConcern: 'local' }, 14, 'TypeMismatch', "BSON field 'distinct.readConcern' is the wrong type 'string', expected type 'object'"],
  ]);

  it('a negative count limit counts its absolute value; fields is ignored', async () => {
    expect(await h.db.command({ count: 'c', limit: -1, fields: 'anything' })).toEqual({ n: 1, ok: 1 });
  });
});

describe('insert and delete', () => {
  beforeEach(async () => {
    await h.db.collection('w').deleteMany({});
    await h.db.collection('w').insertMany([{ _id: 1, k: 1 }, { _id: 2, k: 1 }, { _id: 3, k: 2 }]);
  });

  runCases([
    ['documents not an array', { insert: 'w', documents: {} }, 14, 'TypeMismatch', "BSON field 'insert.documents' is the wrong type 'object', expected type 'array'"],
    ['a document that is not an object', { insert: 'w', documents: [{ _id: 9 }, 1] }, 14, 'TypeMismatch', "BSON field 'insert.documents.1' is the wrong type 'int', expected type 'object'"],
    ['insert ordered as a string', { insert: 'w', documents: [{}], ordered: 'x' }, 14, 'TypeMismatch', "BSON field 'insert.ordered' is the wrong type 'string', expected type 'bool'"],
    ['insert ordered as a number', { insert: 'w', documents: [{}], ordered: 1 }, 14, 'TypeMismatch', "BSON field 'insert.ordered' is the wrong type 'int', expected type 'bool'"],
    ['insert bypassDocumentValidation as a string', { insert: 'w', documents: [{}], bypassDocumentValidation: 'x' }, 14, 'TypeMismatch', `BSON field 'insert.bypassDocumentValidation' is the wrong type 'string', expected types ${SAFE_BOOL}`],
    ['insert let (not an insert field)', { insert: 'w', documents: [{}], let: {} }, 40415, 'IDLUnknownField', "BSON field 'insert.let' is an unknown field."],
    ['insert maxTimeMS as a string', { insert: 'w', documents: [{}], maxTimeMS: 'x' }, 14, 'TypeMismatch', `BSON field 'insert.maxTimeMS' is the wrong type 'string', expected types ${NUMBERS}`],
    ['deletes not an array', { delete: 'w', deletes: {} }, 14, 'TypeMismatch', "BSON field 'delete.deletes' is the wrong type 'object', expected type 'array'"],
    ['a statement that is not an object', { delete: 'w', deletes: [1] }, 14, 'TypeMismatch', "BSON field 'delete.deletes.0' is the wrong type 'int', expected type 'object'"],
    ['a statement without limit', { delete: 'w', deletes: [{ q: {} }] }, 40414, 'IDLFailedToParse', "BSON field 'delete.deletes.limit' is missing but a required field"],
    ['a statement without q', { delete: 'w', deletes: [{ limit: 0 }] }, 40414, 'IDLFailedToParse', "BSON field 'delete.deletes.q' is missing but a required field"],
    ['a limit of 2', { delete: 'w', deletes: [{ q: {}, limit: 2 }] }, 9, 'FailedToParse', 'The limit field in delete objects must be 0 or 1. Got 2'],
    ['a limit of 0.5', { delete: 'w', deletes: [{ q: {}, limit: 0.5 }] }, 9, 'FailedToParse', 'The limit field in delete objects must be 0 or 1. Got 0.5'],
    ['q of a wrong type', { delete: 'w', deletes: [{ q: 'x', limit: 0 }] }, 14, 'TypeMismatch', "BSON field 'delete.deletes.q' is the wrong type 'string', expected type 'object'"],
    ['a statement sort (not a delete field)', { delete: 'w', deletes: [{ q: {}, limit: 1, sort: { _id: 1 } }] }, 40415, 'IDLUnknownField', "BSON field 'delete.deletes.sort' is an unknown field."],
    ['a statement hint as a number', { delete: 'w', deletes: [{ q: {}, limit: 1, hint: 1 }] }, 9, 'FailedToParse', 'Hint must be a string or an object'],
    ['delete ordered as a string', { delete: 'w', deletes: [{ q: {}, limit: 1 }], ordered: 'x' }, 14, 'TypeMismatch', "BSON field 'delete.ordered' is the wrong type 'string', expected type 'bool'"],
    ['delete let as a number', { delete: 'w', deletes: [{ q: {}, limit: 1 }], let: 1 }, 14, 'TypeMismatch', "BSON field 'delete.let' is the wrong type 'int', expected type 'object'"],
    ['statements are parsed in field order', { delete: 'w', deletes: [{ q: {} }], bogus: 1 }, 40414, 'IDLFailedToParse', "BSON field 'delete.deletes.limit' is missing but a required field"],
    ['an unknown field before the statements', { delete: 'w', bogus: 1, deletes: [{ q: {} }] }, 40415, 'IDLUnknownField', "BSON field 'delete.bogus' is an unknown field."],
    ['delete maxTimeMS fractional', { delete: 'w', deletes: [{ q: {}, limit: 1 }], maxTimeMS: 0.5 }, 9, 'FailedToParse', 'Expected an integer: maxTimeMS: 0.5'],
  ]);

  it('a bad statement fails the whole command: nothing is deleted', async () => {
    const err = await errorOf(() => h.db.command({ delete: 'w', deletes: [{ q: { k: 1 }, limit: 0 }, { q: {}, limit: 5 }] }));
    expect([err.code, err.errmsg]).toEqual([9, 'The limit field in delete objects must be 0 or 1. Got 5']);
    expect(await h.db.collection('w').countDocuments()).toBe(3);
  });

  it('a non-numeric limit reads as 0 (all matches), as readMultiDeleteProperty does', async () => {
    expect(await h.db.command({ delete: 'w', deletes: [{ q: { k: 1 }, limit: 'one' }] })).toEqual({ n: 2, ok: 1 });
    expect(await h.db.command({ delete: 'w', deletes: [{ q: {}, limit: Long.fromNumber(1) }], comment: 7 })).toEqual({ n: 1, ok: 1 });
  });
});

describe('aggregate and explain', () => {
  runCases([
    ['no cursor', { aggregate: 'c', pipeline: [] }, 9, 'FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument"],
    ['explain false with no cursor', { aggregate: 'c', pipeline: [], explain: false }, 9, 'FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument"],
    ['pipeline not an array', { aggregate: 'c', pipeline: {}, cursor: {} }, 14, 'TypeMismatch', "'pipeline' option must be specified as an array"],
    ['a stage that is not an object', { aggregate: 'c', pipeline: [{ $match: {} }, 1], cursor: {} }, 14, 'TypeMismatch', "Each element of the 'pipeline' array must be an object"],
    ['no pipeline', { aggregate: 'c', cursor: {} }, 40414, 'IDLFailedToParse', "BSON field 'aggregate.pipeline' is missing but a required field"],
    ['cursor of a wrong type', { aggregate: 'c', pipeline: [], cursor: 'x' }, 14, 'TypeMismatch', 'cursor field must be missing or an object'],
    ['a negative cursor.batchSize', { aggregate: 'c', pipeline: [], cursor: { batchSize: -1 } }, 2, 'BadValue', "BSON field 'batchSize' value must be >= 0, actual value '-1'"],
    ['cursor.batchSize as a string', { aggregate: 'c', pipeline: [], cursor: { batchSize: 'x' } }, 14, 'TypeMismatch', `BSON field 'cursor.batchSize' is the wrong type 'string', expected types ${NUMBERS}`],
    ['an unknown cursor field', { aggregate: 'c', pipeline: [], cursor: { foo: 1 } }, 40415, 'IDLUnknownField', "BSON field 'cursor.foo' is an unknown field."],
    ['allowDiskUse as a number', { aggregate: 'c', pipeline: [], cursor: {}, allowDiskUse: 1 }, 14, 'TypeMismatch', "Field 'allowDiskUse' should be a boolean value, but found: int"],
    ['explain as a number', { aggregate: 'c', pipeline: [], explain: 1 }, 14, 'TypeMismatch', 'explain must be a boolean'],
    ['a negative maxTimeMS', { aggregate: 'c', pipeline: [], cursor: {}, maxTimeMS: -1 }, 2, 'BadValue', '-1 value for maxTimeMS is out of range [0, 2147483647]'],
    ['a fractional maxTimeMS', { aggregate: 'c', pipeline: [], cursor: {}, maxTimeMS: 1000.5 }, 9, 'FailedToParse', 'Expected an integer: maxTimeMS: 1000.5'],
    ['maxTimeMS as a string', { aggregate: 'c', pipeline: [], cursor: {}, maxTimeMS: 'x' }, 14, 'TypeMismatch', `BSON field 'aggregate.maxTimeMS' is the wrong type 'string', expected types ${NUMBERS}`],
    ['readConcern as a number', { aggregate: 'c', pipeline: [], cursor: {}, readConcern: 1 }, 14, 'TypeMismatch', "BSON field 'aggregate.readConcern' is the wrong type 'int', expected type 'object'"],
    ['let as a string', { aggregate: 'c', pipeline: [], cursor: {}, let: 'x' }, 14, 'TypeMismatch', "BSON field 'aggregate.let' is the wrong type 'string', expected type 'object'"],
    ['hint as a number', { aggregate: 'c', pipeline: [], cursor: {}, hint: 1 }, 9, 'FailedToParse', 'Hint must be a string or an object'],
    ['bypassDocumentValidation as a string', { aggregate: 'c', pipeline: [], cursor: {}, bypassDocumentValidation: 'x' }, 14, 'TypeMismatch', `BSON field 'aggregate.bypassDocumentValidation' is the wrong type 'string', expected types ${SAFE_BOOL}`],
    ['a bool target', { aggregate: true, pipeline: [], cursor: {} }, 73, 'InvalidNamespace', 'collection name has invalid type bool'],
    ['a number target other than 1', { aggregate: 2, pipeline: [], cursor: {} }, 2, 'BadValue', "Invalid command format: the 'aggregate' field must specify a collection name or 1"],
    ['needsMerge without fromMongos', { aggregate: 'c', pipeline: [], cursor: {}, needsMerge: true }, 9, 'FailedToParse', "Cannot specify 'needsMerge' without 'fromMongos'"],
    ['an explain with a writeConcern', { aggregate: 'c', pipeline: [], explain: true, writeConcern: { w: 1 } }, 9, 'FailedToParse', "Aggregation explain does not support the'writeConcern' option"],
    ['an unknown field', { aggregate: 'c', pipeline: [], cursor: {}, bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'aggregate.bogus' is an unknown field."],
    ['explain: the inner find is checked', { explain: { find: 'c', limit: -1 } }, 2, 'BadValue', "BSON field 'limit' value must be >= 0, actual value '-1'"],
    ['explain: an inner delete statement without limit', { explain: { delete: 'c', deletes: [{ q: {} }] } }, 40414, 'IDLFailedToParse', "BSON field 'delete.deletes.limit' is missing but a required field"],
    ['explain: an aggregate with its own explain', { explain: { aggregate: 'c', pipeline: [], explain: true } }, 9, 'FailedToParse', "The 'explain' option is illegal when a explain verbosity is also provided"],
    ['explain: verbosity as a number', { explain: { find: 'c' }, verbosity: 1 }, 14, 'TypeMismatch', "BSON field 'explain.verbosity' is the wrong type 'int', expected type 'string'"],
  ]);

  it('explain: false runs the pipeline through its cursor; comment may be anything', async () => {
    const reply = await h.db.command({ aggregate: 'c', pipeline: [{ $sort: { _id: 1 } }], explain: false, cursor: {}, comment: ['x'] });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 1, a: 1 }, { _id: 2, a: 2 }]);
  });
});

describe('catalog commands', () => {
  runCases([
    ['listIndexes cursor of a wrong type', { listIndexes: 'c', cursor: 'x' }, 14, 'TypeMismatch', "BSON field 'listIndexes.cursor' is the wrong type 'string', expected type 'object'"],
    ['listIndexes negative batchSize', { listIndexes: 'c', cursor: { batchSize: -1 } }, 51024, 'Location51024', "BSON field 'batchSize' value must be >= 0, actual value '-1'"],
    ['listIndexes unknown cursor field', { listIndexes: 'c', cursor: { bogus: 1 } }, 40415, 'IDLUnknownField', "BSON field 'listIndexes.cursor.bogus' is an unknown field."],
    ['listIndexes includeBuildUUIDs as a string', { listIndexes: 'c', includeBuildUUIDs: 'x' }, 14, 'TypeMismatch', `BSON field 'listIndexes.includeBuildUUIDs' is the wrong type 'string', expected types ${SAFE_BOOL}`],
    ['listCollections nameOnly as a number', { listCollections: 1, nameOnly: 1 }, 14, 'TypeMismatch', "BSON field 'listCollections.nameOnly' is the wrong type 'int', expected type 'bool'"],
    ['listCollections filter as a number', { listCollections: 1, filter: 1 }, 14, 'TypeMismatch', "BSON field 'listCollections.filter' is the wrong type 'int', expected type 'object'"],
    ['listCollections batchSize as a string', { listCollections: 1, cursor: { batchSize: 'x' } }, 14, 'TypeMismatch', `BSON field 'listCollections.cursor.batchSize' is the wrong type 'string', expected types ${NUMBERS}`],
    ['createIndexes with an index that is not an object', { createIndexes: 'c', indexes: [1] }, 14, 'TypeMismatch', "BSON field 'createIndexes.indexes.0' is the wrong type 'int', expected type 'object'"],
    ['createIndexes ignoreUnknownIndexOptions as a string', { createIndexes: 'c', indexes: [{ key: { z: 1 }, name: 'z_1' }], ignoreUnknownIndexOptions: 'x' }, 14, 'TypeMismatch', `BSON field 'createIndexes.ignoreUnknownIndexOptions' is the wrong type 'string', expected types ${SAFE_BOOL}`],
    ['drop with an unknown field', { drop: 'nothing', bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'drop.bogus' is an unknown field."],
    ['create capped as a string', { create: 'x1', capped: 'x' }, 14, 'TypeMismatch', `BSON field 'create.capped' is the wrong type 'string', expected types ${SAFE_BOOL}`],
    ['create size 0', { create: 'x1', size: 0 }, 2, 'BadValue', "BSON field 'size' value must be >= 1, actual value '0'"],
    ['create max 2^31', { create: 'x1', max: 2147483648 }, 2, 'BadValue', "BSON field 'max' value must be < 2147483648, actual value '2147483648'"],
    ['create pipeline with a non-object', { create: 'x1', pipeline: [1] }, 14, 'TypeMismatch', "BSON field 'create.pipeline.0' is the wrong type 'int', expected type 'object'"],
  ]);

  it('nothing was created by the refused commands', async () => {
    expect(await h.db.listCollections({}, { nameOnly: true }).toArray()).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ name: 'x1' })]),
    );
    expect((await h.db.collection('c').listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
  });
});

describe('hint reaches the planner', () => {
  // b_desc is sparse: scanning it yields only the documents that have b, b descending.
  beforeEach(async () => {
    const coll = h.db.collection('hinted');
    await coll.drop().catch(() => undefined);
    await coll.insertMany([{ _id: 1, a: 1, b: 1 }, { _id: 2, a: 2 }, { _id: 3, a: 3, b: 3 }, { _id: 4 }]);
    await coll.createIndex({ b: -1 }, { name: 'b_desc', sparse: true });
  });

  async function ids(): Promise<unknown[]> {
    return (await h.db.collection('hinted').find().sort({ _id: 1 }).toArray()).map((d) => d._id);
  }

  /** Every index the winning plan scans. */
  function indexesOf(plan: Document): string[] {
    const out: string[] = [];
    const walk = (node: Document | undefined): void => {
      if (!node) return;
      if (typeof node.indexName === 'string') out.push(node.indexName);
      walk(node.inputStage);
      for (const child of (node.inputStages as Document[] | undefined) ?? []) walk(child);
    };
    walk(plan);
    return out;
  }

  it('count: by name and by key pattern, only what the index holds', async () => {
    expect(await h.db.command({ count: 'hinted', hint: 'b_desc' })).toEqual({ n: 2, ok: 1 });
    expect(await h.db.command({ count: 'hinted', hint: { b: -1 } })).toEqual({ n: 2, ok: 1 });
    expect(await h.db.command({ count: 'hinted', query: { a: { $gte: 1 } }, hint: 'b_desc', limit: 1 })).toEqual({ n: 1, ok: 1 });
    expect(await h.db.command({ count: 'hinted' })).toEqual({ n: 4, ok: 1 });
    const e = await h.db.command({ explain: { count: 'hinted', hint: 'b_desc' }, verbosity: 'executionStats' });
    expect(indexesOf(e.queryPlanner.winningPlan)).toEqual(['b_desc']);
    expect(e.executionStats.executionStages.nCounted).toBe(2);
  });

  it('distinct', async () => {
    expect((await h.db.command({ distinct: 'hinted', key: 'a', hint: 'b_desc' })).values).toEqual([1, 3]);
    expect((await h.db.command({ distinct: 'hinted', key: 'a' })).values).toEqual([1, 2, 3]);
    const e = await h.db.command({ explain: { distinct: 'hinted', key: 'a', hint: { b: -1 } }, verbosity: 'queryPlanner' });
    expect(indexesOf(e.queryPlanner.winningPlan)).toEqual(['b_desc']);
  });

  it('delete: deleteOne takes the first in index order, deleteMany only what the index holds', async () => {
    expect((await h.db.collection('hinted').deleteOne({}, { hint: 'b_desc' })).deletedCount).toBe(1);
    expect(await ids()).toEqual([1, 2, 4]);
    expect((await h.db.collection('hinted').deleteMany({}, { hint: { b: -1 } })).deletedCount).toBe(1);
    expect(await ids()).toEqual([2, 4]);
  });

  it('delete: explain shows the hinted scan', async () => {
    const e = await h.db.command({ explain: { delete: 'hinted', deletes: [{ q: {}, limit: 0, hint: 'b_desc' }] }, verbosity: 'executionStats' });
    expect(indexesOf(e.queryPlanner.winningPlan)).toEqual(['b_desc']);
    expect(e.executionStats.executionStages.nWouldDelete).toBe(2);
    expect(await ids()).toEqual([1, 2, 3, 4]);
  });

  it('update: updateOne takes the first in index order, updateMany only what the index holds', async () => {
    const one = await h.db.collection('hinted').updateOne({}, { $set: { one: true } }, { hint: 'b_desc' });
    expect([one.matchedCount, one.modifiedCount]).toEqual([1, 1]);
    const many = await h.db.collection('hinted').updateMany({}, { $set: { many: true } }, { hint: { b: -1 } });
    expect([many.matchedCount, many.modifiedCount]).toEqual([2, 2]);
    expect(await h.db.collection('hinted').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 1, b: 1, many: true },
      { _id: 2, a: 2 },
      { _id: 3, a: 3, b: 3, one: true, many: true },
      { _id: 4 },
    ]);
    const e = await h.db.command({ explain: { update: 'hinted', updates: [{ q: {}, u: { $set: { x: 1 } }, multi: true, hint: 'b_desc' }] }, verbosity: 'executionStats' });
    expect(indexesOf(e.queryPlanner.winningPlan)).toEqual(['b_desc']);
    expect(e.executionStats.executionStages.nMatched).toBe(2);
  });

  it('findAndModify: update and remove take the first in index order', async () => {
    // @ts-expect-error the driver types findOneAndUpdate's hint as a Document; findAndModify takes an index name too
    const updated = await h.db.collection('hinted').findOneAndUpdate({}, { $set: { f: 1 } }, { hint: 'b_desc', returnDocument: 'after' });
    expect(updated).toEqual({ _id: 3, a: 3, b: 3, f: 1 });
    const removed = await h.db.collection('hinted').findOneAndDelete({ a: { $lt: 3 } }, { hint: { b: -1 } });
    expect(removed).toEqual({ _id: 1, a: 1, b: 1 });
    expect(await ids()).toEqual([2, 3, 4]);
    const e = await h.db.command({ explain: { findAndModify: 'hinted', query: {}, remove: true, hint: 'b_desc' }, verbosity: 'queryPlanner' });
    expect(indexesOf(e.queryPlanner.winningPlan)).toEqual(['b_desc']);
  });

  it('bulkWrite (8.0): update and delete ops use their hint', async () => {
    const ns = `${h.db.databaseName}.hinted`;
    const result = await h.client.bulkWrite([
      { namespace: ns, name: 'updateOne', filter: {}, update: { $set: { bw: 1 } }, hint: 'b_desc' },
      { namespace: ns, name: 'deleteMany', filter: { a: { $gte: 1 } }, hint: { b: -1 } },
    ]);
    expect([result.modifiedCount, result.deletedCount]).toEqual([1, 2]);
    expect(await h.db.collection('hinted').find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 2, a: 2 }, { _id: 4 }]);
  });

  it('a hint naming no index is 2 BadValue: a write error for writes, a command error for reads', async () => {
    const message = 'hint provided does not correspond to an existing index';
    const countErr = await errorOf(() => h.db.command({ count: 'hinted', hint: 'nope' }));
    expect([countErr.code, countErr.codeName, countErr.errmsg]).toEqual([2, 'BadValue', message]);
    const distinctErr = await errorOf(() => h.db.command({ distinct: 'hinted', key: 'a', hint: { zz: 1 } }));
    expect([distinctErr.code, distinctErr.errmsg]).toEqual([2, message]);
    const del = await h.db.command({ delete: 'hinted', deletes: [{ q: {}, limit: 0, hint: 'nope' }] });
    expect(del).toEqual({ n: 0, writeErrors: [{ index: 0, code: 2, errmsg: message }], ok: 1 });
    const upd = await h.db.command({ update: 'hinted', updates: [{ q: {}, u: { $set: { z: 1 } }, hint: { nope: 1 } }] });
    expect(upd).toEqual({ n: 0, writeErrors: [{ index: 0, code: 2, errmsg: message }], nModified: 0, ok: 1 });
    const famErr = await errorOf(() => h.db.command({ findAndModify: 'hinted', query: {}, update: { $set: { z: 1 } }, hint: 'nope' }));
    expect([famErr.code, famErr.errmsg]).toEqual([2, message]);
    const ns = `${h.db.databaseName}.hinted`;
    try {
      await h.client.bulkWrite([{ namespace: ns, name: 'deleteOne', filter: {}, hint: 'nope' }]);
      throw new Error('expected a MongoClientBulkWriteError');
    } catch (err) {
      expect(err).toBeInstanceOf(MongoClientBulkWriteError);
      const e = (err as MongoClientBulkWriteError).writeErrors.get(0);
      expect([e?.code, e?.message]).toEqual([2, message]);
    }
    expect(await ids()).toEqual([1, 2, 3, 4]);
    // On a collection that does not exist there is no index to miss.
    expect(await h.db.command({ count: 'no_such_coll', hint: 'nope' })).toEqual({ n: 0, ok: 1 });
  });
});
