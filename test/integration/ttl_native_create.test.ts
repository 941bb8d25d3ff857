/**
 * `--compat mongodb`: createIndexes validation of `expireAfterSeconds` as mongod 8.2 does it
 * (ttl-reference.md §2.2): exact codes, code names and messages, fractions truncated and stored
 * as Int32, combinations with sparse, unique, partial and hidden, and the conflicts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Decimal128, Double, Int32, Long, ObjectId } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { rawIndexes } from './ttl_helpers.js';

const LESS = "TTL index 'expireAfterSeconds' option cannot be less than 0";
const NAN = "TTL index 'expireAfterSeconds' option must not be NaN";
const RANGE = "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer";
const NUMERIC = (type: string) => `TTL index 'expireAfterSeconds' option must be numeric, but received a type of '${type}`;

describe('createIndexes expireAfterSeconds, --compat mongodb', () => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await startHarness({ compat: 'mongodb', clock: 'manual' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('the reply carries no _t in mongodb mode', async () => {
    const reply = await h.db.command({ createIndexes: 'plain_reply', indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: 60 }] });
    expect(reply).toEqual({ createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2, ok: 1 });
  });

  test.each([
    ['Int32 3600', 3600, 3600],
    ['Int64 3600', Long.fromNumber(3600), 3600],
    ['Double 3600.0', new Double(3600), 3600],
    ['Decimal128 "3600"', Decimal128.fromString('3600'), 3600],
    ['0', 0, 0],
    ['2147483647', 2147483647, 2147483647],
    ['Int64 2147483647', Long.fromNumber(2147483647), 2147483647],
    ['-0.0', -0, 0],
    ['Decimal128 "-0"', Decimal128.fromString('-0'), 0],
    ['3600.5 (truncated)', 3600.5, 3600],
    ['60.9 (truncated)', 60.9, 60],
    ['-0.9 (truncated to 0)', -0.9, 0],
    ['Decimal128 "3600.5"', Decimal128.fromString('3600.5'), 3600],
  ])('%s is accepted and listed as Int32 %s', async (_name, value, stored) => {
    const coll = `ok_${++n}`;
    await h.db.command({ createIndexes: coll, indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: value }] });
    expect((await rawIndexes(h.db, coll))[1]).toEqual({ v: new Int32(2), key: { t: new Int32(1) }, name: 't_1', expireAfterSeconds: new Int32(stored) });
  });

  test.each([
    ['-1', -1, '-1', LESS],
    ['Int64 -1', Long.fromNumber(-1), '-1', LESS],
    ['Double -1.0', new Double(-1), '-1.0', LESS],
    ['Decimal128 "-1"', Decimal128.fromString('-1'), '-1', LESS],
    ['-2147483648', -2147483648, '-2147483648', LESS],
    ['NaN', NaN, 'nan.0', NAN],
    ['Decimal128 NaN', Decimal128.fromString('NaN'), 'NaN', NAN],
    ['2147483648', 2147483648, '2147483648.0', RANGE],
    ['Int64 2147483648', Long.fromString('2147483648'), '2147483648', RANGE],
    ['Int64 max', Long.MAX_VALUE, '9223372036854775807', RANGE],
    ['Decimal128 "10002147483648"', Decimal128.fromString('10002147483648'), '10002147483648', RANGE],
    ['+Infinity', Infinity, 'inf.0', RANGE],
    ['-Infinity', -Infinity, '-inf.0', RANGE],
    ['Decimal128 Infinity', Decimal128.fromString('Infinity'), 'Infinity', RANGE],
    ['a string', '3600', '"3600"', NUMERIC('string')],
    ['a bool', true, 'true', NUMERIC('bool')],
    ['null', null, 'null', NUMERIC('null')],
    ['an object', {}, '{}', NUMERIC('object')],
    ['an array', [], '[]', NUMERIC('array')],
    ['a Date', new Date(0), 'new Date(0)', NUMERIC('date')],
    ['an ObjectId', new ObjectId('507f1f77bcf86cd799439011'), "ObjectId('507f1f77bcf86cd799439011')", NUMERIC('objectId')],
  ])('%s is refused: 67 CannotCreateIndex, the spec quoted as sent', async (_name, value, shown, reason) => {
    const err = await errorOf(() => h.db.command({ createIndexes: 'refused', indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: value }] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 67,
      codeName: 'CannotCreateIndex',
      errmsg: `. Index spec: { key: { t: 1 }, name: "t_1", expireAfterSeconds: ${shown} } :: caused by :: ${reason}`,
    });
    expect(await h.db.listCollections({ name: 'refused' }).toArray()).toEqual([]);
  });

  test('a compound key is refused (67)', async () => {
    const err = await errorOf(() => h.db.command({ createIndexes: 'refused', indexes: [{ key: { a: 1, b: 1 }, name: 'a_1_b_1', expireAfterSeconds: 60 }] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 67,
      codeName: 'CannotCreateIndex',
      errmsg: 'TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: { key: { a: 1, b: 1 }, name: "a_1_b_1", expireAfterSeconds: 60 }',
    });
  });

  test('the _id index cannot be TTL (197)', async () => {
    const err = await errorOf(() => h.db.command({ createIndexes: 'refused', indexes: [{ key: { _id: 1 }, name: 'id_ttl', expireAfterSeconds: 60 }] }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 197,
      codeName: 'InvalidIndexSpecificationOption',
      errmsg: `The field 'expireAfterSeconds' is not valid for an _id index specification. Specification: { v: 2, key: { _id: 1 }, name: "id_ttl", expireAfterSeconds: 60 }`,
    });
  });

  test('TTL combines with sparse, unique, partialFilterExpression and hidden', async () => {
    await h.db.command({
      createIndexes: 'combined',
      indexes: [
        { key: { s: 1 }, name: 's_1', expireAfterSeconds: 10, sparse: true },
        { key: { u: 1 }, name: 'u_1', expireAfterSeconds: 20, unique: true },
        { key: { p: 1 }, name: 'p_1', expireAfterSeconds: 30, partialFilterExpression: { kind: 'tmp' } },
        { key: { hd: -1 }, name: 'hd_-1', expireAfterSeconds: 40, hidden: true },
      ],
    });
    expect((await rawIndexes(h.db, 'combined')).slice(1)).toEqual([
      { v: new Int32(2), key: { s: new Int32(1) }, name: 's_1', expireAfterSeconds: new Int32(10), sparse: true },
      { v: new Int32(2), key: { u: new Int32(1) }, name: 'u_1', expireAfterSeconds: new Int32(20), unique: true },
      { v: new Int32(2), key: { p: new Int32(1) }, name: 'p_1', expireAfterSeconds: new Int32(30), partialFilterExpression: { kind: 'tmp' } },
      { v: new Int32(2), key: { hd: new Int32(-1) }, name: 'hd_-1', expireAfterSeconds: new Int32(40), hidden: true },
    ]);
  });

  test('only TTL options differing: 85 IndexOptionsConflict', async () => {
    await h.db.command({ createIndexes: 'conflicts', indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: 86400 }, { key: { p: 1 }, name: 'p_plain' }] });
    const sameName = await errorOf(() => h.db.command({ createIndexes: 'conflicts', indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: 60 }] }));
    expect({ code: sameName.code, codeName: sameName.codeName, errmsg: sameName.errmsg }).toEqual({
      code: 85,
      codeName: 'IndexOptionsConflict',
      errmsg:
        'An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { t: 1 }, name: "t_1", expireAfterSeconds: 60 }, existing index: { v: 2, key: { t: 1 }, name: "t_1", expireAfterSeconds: 86400 }',
    });
    const otherName = await errorOf(() => h.db.command({ createIndexes: 'conflicts', indexes: [{ key: { p: 1 }, name: 'p_ttl', expireAfterSeconds: 60 }] }));
    expect({ code: otherName.code, codeName: otherName.codeName, errmsg: otherName.errmsg }).toEqual({
      code: 85,
      codeName: 'IndexOptionsConflict',
      errmsg:
        'An equivalent index already exists with a different name and options. Requested index: { v: 2, key: { p: 1 }, name: "p_ttl", expireAfterSeconds: 60 }, existing index: { v: 2, key: { p: 1 }, name: "p_plain" }',
    });
    // The same TTL index again (even as Int64) is no change.
    const same = await h.db.command({ createIndexes: 'conflicts', indexes: [{ key: { t: 1 }, name: 't_1', expireAfterSeconds: Long.fromNumber(86400) }] });
    expect(same).toEqual({ numIndexesBefore: 3, numIndexesAfter: 3, note: 'all indexes already exist', ok: 1 });
  });

  test('the _ts policy keeps its own rules in mongodb mode', async () => {
    await h.db.command({ createIndexes: 'ts_in_mongodb', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: -1 }] });
    expect((await rawIndexes(h.db, 'ts_in_mongodb'))[1]!.expireAfterSeconds).toEqual(new Int32(-1));
    const err = await errorOf(() => h.db.command({ createIndexes: 'ts_in_mongodb2', indexes: [{ key: { _ts: 1 }, name: '_ts_1', expireAfterSeconds: 0 }] }));
    expect({ code: err.code, codeName: err.codeName }).toEqual({ code: 2, codeName: 'BadValue' });
  });
});
