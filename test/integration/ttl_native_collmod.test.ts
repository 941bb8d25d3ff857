/**
 * `collMod` on TTL indexes, `--compat mongodb`, as mongod 8.2 answers (ttl-reference.md §2.6):
 * by name or key pattern, converting a plain index, conversion and clamping of the value, the
 * reply's Int64 `expireAfterSeconds_old`/`_new` and `hidden_old`/`_new`, and the errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { Decimal128, Double, Int32, Long, MaxKey, ObjectId, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { rawCommand, rawIndexes } from './ttl_helpers.js';

describe('collMod on TTL indexes, --compat mongodb', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ compat: 'mongodb', clock: 'manual' });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.db.collection('c').drop();
    await h.db.command({
      createIndexes: 'c',
      indexes: [
        { key: { a: 1 }, name: 'a_ttl', expireAfterSeconds: 100 },
        { key: { b: 1 }, name: 'b_1' },
        { key: { x: 1, y: 1 }, name: 'x_1_y_1' },
      ],
    });
  });

  const mod = (index: Document) => rawCommand(h.db, { collMod: 'c', index });
  const ok = new Double(1);

  test('changes the TTL by name and by key pattern; the reply is Int64', async () => {
    expect(await mod({ name: 'a_ttl', expireAfterSeconds: 60 })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(100),
      expireAfterSeconds_new: Long.fromNumber(60),
      ok,
    });
    expect(await mod({ keyPattern: { a: 1 }, expireAfterSeconds: Long.fromNumber(3600) })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(60),
      expireAfterSeconds_new: Long.fromNumber(3600),
      ok,
    });
    expect((await rawIndexes(h.db, 'c'))[1]).toEqual({ v: new Int32(2), key: { a: new Int32(1) }, name: 'a_ttl', expireAfterSeconds: new Int32(3600) });
  });

  test('the same value echoes both old and new', async () => {
    expect(await mod({ name: 'a_ttl', expireAfterSeconds: 100 })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(100),
      expireAfterSeconds_new: Long.fromNumber(100),
      ok,
    });
  });

  test.each([
    ['Int64 50', Long.fromNumber(50), 50],
    ['Double 50.0', new Double(50), 50],
    ['50.7 (truncated)', 50.7, 50],
    ['Decimal128 50.4', Decimal128.fromString('50.4'), 50],
    ['Decimal128 50.5 (half to even)', Decimal128.fromString('50.5'), 50],
    ['Decimal128 50.7', Decimal128.fromString('50.7'), 51],
    ['Decimal128 51.5 (half to even)', Decimal128.fromString('51.5'), 52],
    ['0', 0, 0],
    ['-0.9 (truncated to 0)', -0.9, 0],
    ['2147483647', 2147483647, 2147483647],
    ['Int64 2147483648 (clamped)', Long.fromString('2147483648'), 2147483647],
    ['2147483648.0 (clamped)', 2147483648, 2147483647],
    ['Decimal128 overflow (clamped)', Decimal128.fromString('10002147483648'), 2147483647],
    ['+Infinity (clamped)', Infinity, 2147483647],
    ['Decimal128 Infinity (clamped)', Decimal128.fromString('Infinity'), 2147483647],
    ['NaN (0)', NaN, 0],
    ['Decimal128 NaN (0)', Decimal128.fromString('NaN'), 0],
  ])('%s becomes %s', async (_name, value, want) => {
    expect(await mod({ name: 'a_ttl', expireAfterSeconds: value })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(100),
      expireAfterSeconds_new: Long.fromNumber(want),
      ok,
    });
    expect((await rawIndexes(h.db, 'c'))[1]!.expireAfterSeconds).toEqual(new Int32(want));
  });

  test('converts a plain single-field index to TTL: no _old, the value appended to the spec', async () => {
    expect(await mod({ keyPattern: { b: 1 }, expireAfterSeconds: 50 })).toEqual({ expireAfterSeconds_new: Long.fromNumber(50), ok });
    expect((await rawIndexes(h.db, 'c'))[2]).toEqual({ v: new Int32(2), key: { b: new Int32(1) }, name: 'b_1', expireAfterSeconds: new Int32(50) });
  });

  test('expireAfterSeconds with hidden: both reported; hiding a hidden index adds nothing', async () => {
    expect(await mod({ name: 'a_ttl', expireAfterSeconds: 200, hidden: true })).toEqual({
      expireAfterSeconds_old: Long.fromNumber(100),
      expireAfterSeconds_new: Long.fromNumber(200),
      hidden_old: false,
      hidden_new: true,
      ok,
    });
    expect((await rawIndexes(h.db, 'c'))[1]).toEqual({ v: new Int32(2), key: { a: new Int32(1) }, name: 'a_ttl', expireAfterSeconds: new Int32(200), hidden: true });
    expect(await mod({ name: 'a_ttl', hidden: true })).toEqual({ ok });
    expect(await mod({ name: 'a_ttl', hidden: 0 })).toEqual({ hidden_old: true, hidden_new: false, ok });
    expect((await rawIndexes(h.db, 'c'))[1]).toEqual({ v: new Int32(2), key: { a: new Int32(1) }, name: 'a_ttl', expireAfterSeconds: new Int32(200) });
  });

  test('a null index and an empty collMod are no-ops', async () => {
    expect(await rawCommand(h.db, { collMod: 'c', index: null })).toEqual({ ok });
    expect(await rawCommand(h.db, { collMod: 'c' })).toEqual({ ok });
  });

  const cases: Array<[string, Document, number, string, string]> = [
    ['a negative value', { name: 'a_ttl', expireAfterSeconds: -1 }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['Int64 -1', { name: 'a_ttl', expireAfterSeconds: Long.fromNumber(-1) }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['-1.5', { name: 'a_ttl', expireAfterSeconds: -1.5 }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['Decimal128 -1', { name: 'a_ttl', expireAfterSeconds: Decimal128.fromString('-1') }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['-Infinity', { name: 'a_ttl', expireAfterSeconds: -Infinity }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['a negative value on a missing index', { name: 'nope', expireAfterSeconds: -1 }, 72, 'InvalidOptions', "TTL index 'expireAfterSeconds' option cannot be less than 0"],
    ['a string', { name: 'a_ttl', expireAfterSeconds: '100' }, 14, 'TypeMismatch', "BSON field 'collMod.index.expireAfterSeconds' is the wrong type 'string', expected types '[long, int, decimal, double']"],
    ['a bool', { name: 'a_ttl', expireAfterSeconds: true }, 14, 'TypeMismatch', "BSON field 'collMod.index.expireAfterSeconds' is the wrong type 'bool', expected types '[long, int, decimal, double']"],
    ['an ObjectId', { name: 'a_ttl', expireAfterSeconds: new ObjectId('507f1f77bcf86cd799439011') }, 14, 'TypeMismatch', "BSON field 'collMod.index.expireAfterSeconds' is the wrong type 'objectId', expected types '[long, int, decimal, double']"],
    ['MaxKey', { name: 'a_ttl', expireAfterSeconds: new MaxKey() }, 14, 'TypeMismatch', "BSON field 'collMod.index.expireAfterSeconds' is the wrong type 'maxKey', expected types '[long, int, decimal, double']"],
    ['null (no modification left)', { name: 'a_ttl', expireAfterSeconds: null }, 72, 'InvalidOptions', 'no expireAfterSeconds, hidden, unique, or prepareUnique field'],
    ['no modification', { name: 'a_ttl' }, 72, 'InvalidOptions', 'no expireAfterSeconds, hidden, unique, or prepareUnique field'],
    ['neither name nor key pattern', { expireAfterSeconds: 10 }, 72, 'InvalidOptions', 'Must specify either index name or key pattern.'],
    ['both name and key pattern', { name: 'a_ttl', keyPattern: { a: 1 }, expireAfterSeconds: 10 }, 72, 'InvalidOptions', 'Cannot specify both key pattern and name.'],
    ['an unknown name', { name: 'nope', expireAfterSeconds: 10 }, 27, 'IndexNotFound', 'cannot find index nope for ns COLL'],
    ['an unknown key pattern', { keyPattern: { zz: 1 }, expireAfterSeconds: 10 }, 27, 'IndexNotFound', 'cannot find index { zz: 1 } for ns COLL'],
    ['a compound index', { name: 'x_1_y_1', expireAfterSeconds: 10 }, 72, 'InvalidOptions', 'TTL indexes are single-field indexes, compound indexes do not support TTL'],
    ['the _id index', { keyPattern: { _id: 1 }, expireAfterSeconds: 10 }, 72, 'InvalidOptions', 'the _id field does not support TTL indexes'],
    ['hiding _id', { name: '_id_', hidden: true }, 2, 'BadValue', "can't hide _id index"],
    ['an unknown field', { name: 'a_ttl', expireAfterSeconds: 10, bogus: 1 }, 40415, 'IDLUnknownField', "BSON field 'collMod.index.bogus' is an unknown field."],
    ['a non-string name', { name: 5, expireAfterSeconds: 10 }, 14, 'TypeMismatch', "BSON field 'collMod.index.name' is the wrong type 'int', expected type 'string'"],
    ['a non-bool hidden', { name: 'a_ttl', hidden: 'yes' }, 14, 'TypeMismatch', "BSON field 'collMod.index.hidden' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"],
  ];
  test.each(cases)('%s', async (_name, index, code, codeName, errmsg) => {
    const err = await errorOf(() => h.db.command({ collMod: 'c', index }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code, codeName, errmsg: errmsg.replace('COLL', `${h.db.databaseName}.c`) });
    expect((await rawIndexes(h.db, 'c'))[1]!.expireAfterSeconds).toEqual(new Int32(100));
  });

  test('a missing collection is 26 NamespaceNotFound', async () => {
    const err = await errorOf(() => h.db.command({ collMod: 'missing', index: { name: 'a_ttl', expireAfterSeconds: 10 } }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({ code: 26, codeName: 'NamespaceNotFound', errmsg: 'ns does not exist' });
  });

  test('other options: as mongod on a plain collection', async () => {
    const cases: Array<[Document, number, string]> = [
      [{ viewOn: 'x' }, 72, 'option only supported on a view: viewOn'],
      [{ pipeline: [] }, 72, 'option only supported on a view: pipeline'],
      [{ expireAfterSeconds: 10 }, 72, "'expireAfterSeconds' option is only supported on collections clustered by _id"],
      [{ cappedSize: 4096 }, 72, 'Collection must be capped.'],
      [{ timeseries: { granularity: 'hours' } }, 72, 'option only supported on a time-series collection: timeseries'],
      [{ validator: { $where: 'true' } }, 2, '$where is not allowed in this context'],
      [{ validationLevel: 'sometimes' }, 2, "Enumeration value 'sometimes' for field 'collMod.validationLevel' is not a valid value."],
      [{ index: { name: 'b_1', unique: true } }, 72, "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first."],
      [{ dryRun: true }, 72, 'dry run mode requires an valid index modification.'],
      [{ noSuchOption: 1 }, 40415, "BSON field 'collMod.noSuchOption' is an unknown field."],
    ];
    for (const [options, code, errmsg] of cases) {
      const err = await errorOf(() => h.db.command({ collMod: 'c', ...options }));
      expect({ code: err.code, errmsg: err.errmsg }).toEqual({ code, errmsg });
    }
  });

  test('AmbiguousIndexKeyPattern (181) when two indexes share the key pattern', async () => {
    await h.db.command({ createIndexes: 'amb', indexes: [{ key: { k: 1 }, name: 'k_plain' }, { key: { k: 1 }, name: 'k_partial', partialFilterExpression: { k: { $gt: 5 } } }] });
    const err = await errorOf(() => h.db.command({ collMod: 'amb', index: { keyPattern: { k: 1 }, expireAfterSeconds: 10 } }));
    expect({ code: err.code, codeName: err.codeName, errmsg: err.errmsg }).toEqual({
      code: 181,
      codeName: 'AmbiguousIndexKeyPattern',
      errmsg:
        'index keyPattern { k: 1 } matches 2 indexes, must use index name. Conflicting indexes:{ v: 2, key: { k: 1 }, name: "k_plain" }, { v: 2, key: { k: 1 }, name: "k_partial", partialFilterExpression: { k: { $gt: 5 } } }',
    });
    expect(await rawCommand(h.db, { collMod: 'amb', index: { name: 'k_plain', expireAfterSeconds: 10 } })).toEqual({ expireAfterSeconds_new: Long.fromNumber(10), ok });
  });
});
