/**
 * The version-level commands of versioned collections (TTL.md "Versioned collections"), as
 * mongosh's `db.runCommand` sends them: `putRow` (versions at given timestamps or now), `getRow`
 * (versions newest first, `maxVersions`, half-open `timeRange`) and `getRange` (the same for many
 * rows, as a cursor), with their argument errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Int32, Long, type Document } from 'mongodb';
import { errorOf, startHarness, type Harness } from './harness.js';
import { T_2016_07_21, createVersioned, getRow, putRow, setClock, version } from './versioned_helpers.js';

let h: Harness;
const T = T_2016_07_21;
beforeAll(async () => {
  h = await startHarness({ clock: 'manual' });
  setClock(h, T);
  await createVersioned(h.db, 'rows', { maxVersions: 5 });
  // Row 'k': column a with versions at T-3000, T-2000, T-1000 and T; column b at T-2000.
  await putRow(h.db, 'rows', { _id: 'k', a: 'a1', b: 'b1' }, { a: T - 3000, b: T - 2000 });
  await putRow(h.db, 'rows', { _id: 'k', a: 'a2' }, { a: T - 2000 });
  await putRow(h.db, 'rows', { _id: 'k', a: 'a3' }, { a: T - 1000 });
  await putRow(h.db, 'rows', { _id: 'k', a: 'a4' });
});
afterAll(async () => {
  await h.close();
});

describe('putRow', () => {
  test('replies with the version each column got: the given timestamp or now, as Int64', async () => {
    await createVersioned(h.db, 'put');
    expect(await putRow(h.db, 'put', { _id: 1, a: 1, b: 2 }, { b: T - 10 })).toEqual({ timestamps: { a: Long.fromNumber(T), b: Long.fromNumber(T - 10) }, ok: 1 });
    expect(await h.db.collection('put').findOne({ _id: 1 })).toEqual({ _id: 1, a: 1, b: 2 });
  });

  test('timestamps may be Int32, Int64, integral Double or Date; a timestamp already held replaces that version', async () => {
    await createVersioned(h.db, 'types', { maxVersions: 5 });
    await putRow(h.db, 'types', { _id: 1, a: 'long', b: 'date' }, { a: Long.fromNumber(T - 1), b: new Date(T - 2) });
    await putRow(h.db, 'types', { _id: 1, a: 'double' }, { a: T - 3 });
    await putRow(h.db, 'types', { _id: 1, a: 'LONG' }, { a: T - 1 });
    expect(await getRow(h.db, 'types', 1)).toEqual({ _id: 1, a: [version('LONG', T - 1), version('double', T - 3)], b: [version('date', T - 2)] });
  });

  test('a row with only _id creates a key-only row', async () => {
    await createVersioned(h.db, 'keyonly');
    expect(await putRow(h.db, 'keyonly', { _id: 'x' })).toEqual({ timestamps: {}, ok: 1 });
    expect(await h.db.collection('keyonly').find().toArray()).toEqual([{ _id: 'x' }]);
    expect(await getRow(h.db, 'keyonly', 'x')).toEqual({ _id: 'x' });
  });

  test.each([
    [{ putRow: 'rows', row: { a: 1 } }, 2, 'BadValue', 'putRow.row must contain _id (the primary key of the row)'],
    [{ putRow: 'rows', row: { _id: [1], a: 1 } }, 53, 'InvalidIdField', "The '_id' value cannot be of type array"],
    [{ putRow: 'rows', row: { _id: 1, $a: 1 } }, 2, 'BadValue', "putRow.row column names may not start with '$': $a"],
    [{ putRow: 'rows', row: { _id: 1, a: 1 }, timestamps: { a: 'now' } }, 2, 'BadValue', 'putRow.timestamps.a must be a version timestamp in ms (an integer or a Date), but received "now"'],
    [{ putRow: 'rows', row: { _id: 1, a: 1 }, timestamps: { a: 1.5 } }, 2, 'BadValue', 'putRow.timestamps.a must be a version timestamp in ms (an integer or a Date), but received 1.5'],
    [{ putRow: 'rows', row: { _id: 1, a: 1 }, timestamps: { b: 5 } }, 2, 'BadValue', 'putRow.timestamps.b names no column of putRow.row'],
    [{ putRow: 'rows', row: { _id: 1, a: 1 }, timestamps: { _id: 5 } }, 2, 'BadValue', 'putRow.timestamps._id names no column of putRow.row'],
    [{ putRow: 'rows' }, 40414, 'IDLFailedToParse', "BSON field 'putRow.row' is missing but a required field"],
    [{ putRow: 'rows', row: 1 }, 14, 'TypeMismatch', "BSON field 'putRow.row' is the wrong type 'int', expected type 'object'"],
    [{ putRow: 'rows', row: { _id: 1 }, ts: {} }, 40415, 'IDLUnknownField', "BSON field 'putRow.ts' is an unknown field."],
  ])('%o is %i %s', async (command, code, codeName, errmsg) => {
    const err = await errorOf(() => h.db.command(command as Document));
    expect([err.code, err.codeName, err.errmsg]).toEqual([code, codeName, errmsg]);
  });

  test('on a collection that is not versioned: 20 IllegalOperation; on a missing one: 26', async () => {
    await h.db.createCollection('plain');
    let err = await errorOf(() => putRow(h.db, 'plain', { _id: 1, a: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      20,
      'IllegalOperation',
      `putRow needs a versioned collection; ${h.db.databaseName}.plain is not one (create it with db.createCollection(name, { versioned: {} }))`,
    ]);
    err = await errorOf(() => putRow(h.db, 'missing', { _id: 1, a: 1 }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([26, 'NamespaceNotFound', `putRow needs a versioned collection; ${h.db.databaseName}.missing does not exist`]);
    expect(await h.db.listCollections({ name: 'missing' }).toArray()).toEqual([]);
  });
});

describe('getRow', () => {
  test('every readable version, newest first', async () => {
    expect(await getRow(h.db, 'rows', 'k')).toEqual({
      _id: 'k',
      a: [version('a4', T), version('a3', T - 1000), version('a2', T - 2000), version('a1', T - 3000)],
      b: [version('b1', T - 2000)],
    });
  });

  test('maxVersions: at most n per column', async () => {
    expect(await getRow(h.db, 'rows', 'k', { maxVersions: 2 })).toEqual({ _id: 'k', a: [version('a4', T), version('a3', T - 1000)], b: [version('b1', T - 2000)] });
    expect(await getRow(h.db, 'rows', 'k', { maxVersions: Long.fromNumber(1) })).toEqual({ _id: 'k', a: [version('a4', T)], b: [version('b1', T - 2000)] });
  });

  test('timeRange [start, end): start included, end excluded; columns with nothing in range left out', async () => {
    expect(await getRow(h.db, 'rows', 'k', { timeRange: [T - 2000, T] })).toEqual({
      _id: 'k',
      a: [version('a3', T - 1000), version('a2', T - 2000)],
      b: [version('b1', T - 2000)],
    });
    expect(await getRow(h.db, 'rows', 'k', { timeRange: [T - 1000, T + 1] })).toEqual({ _id: 'k', a: [version('a4', T), version('a3', T - 1000)] });
    expect(await getRow(h.db, 'rows', 'k', { timeRange: [new Date(T - 3000), new Date(T)], maxVersions: 1 })).toEqual({
      _id: 'k',
      a: [version('a3', T - 1000)],
      b: [version('b1', T - 2000)],
    });
  });

  test('row is null when nothing qualifies, the row is missing, or the collection is', async () => {
    expect(await getRow(h.db, 'rows', 'k', { timeRange: [0, T - 3000] })).toBe(null);
    expect(await getRow(h.db, 'rows', 'nope')).toBe(null);
    expect(await h.db.command({ getRow: 'missing', _id: 1 })).toEqual({ row: null, ok: 1 });
  });

  test('the raw reply: timestamps are Int64, values keep their BSON type', async () => {
    await createVersioned(h.db, 'raw');
    await putRow(h.db, 'raw', { _id: 1, n: 7 });
    const reply = await h.db.command({ getRow: 'raw', _id: 1 }, { promoteValues: false });
    expect(reply.row).toEqual({ _id: new Int32(1), n: [{ value: new Int32(7), timestamp: Long.fromNumber(T) }] });
  });

  test.each([
    [{ getRow: 'rows', _id: 'k', maxVersions: 0 }, 2, 'BadValue', 'getRow.maxVersions must be an integer from 1 to 2147483647, but received 0'],
    [{ getRow: 'rows', _id: 'k', maxVersions: 1.5 }, 2, 'BadValue', 'getRow.maxVersions must be an integer from 1 to 2147483647, but received 1.5'],
    [{ getRow: 'rows', _id: 'k', maxVersions: 'all' }, 14, 'TypeMismatch', "BSON field 'getRow.maxVersions' is the wrong type 'string', expected types '[long, int, decimal, double']"],
    [{ getRow: 'rows', _id: 'k', timeRange: [5, 5] }, 2, 'BadValue', 'getRow.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received [ 5, 5 ]'],
    [{ getRow: 'rows', _id: 'k', timeRange: [-1, 5] }, 2, 'BadValue', 'getRow.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received [ -1, 5 ]'],
    [{ getRow: 'rows', _id: 'k', timeRange: [1] }, 2, 'BadValue', 'getRow.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received [ 1 ]'],
    [{ getRow: 'rows', _id: 'k', timeRange: ['a', 2] }, 2, 'BadValue', 'getRow.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received [ "a", 2 ]'],
    [{ getRow: 'rows' }, 40414, 'IDLFailedToParse', "BSON field 'getRow._id' is missing but a required field"],
    [{ getRow: 'rows', _id: 1, filter: {} }, 40415, 'IDLUnknownField', "BSON field 'getRow.filter' is an unknown field."],
  ])('%o is %i %s', async (command, code, codeName, errmsg) => {
    const err = await errorOf(() => h.db.command(command as Document));
    expect([err.code, err.codeName, err.errmsg]).toEqual([code, codeName, errmsg]);
  });

  test('on a collection that is not versioned: 20 IllegalOperation', async () => {
    await h.db.createCollection('plain2');
    const err = await errorOf(() => h.db.command({ getRow: 'plain2', _id: 1 }));
    expect([err.code, err.codeName]).toEqual([20, 'IllegalOperation']);
  });
});

describe('getRange', () => {
  test('rows in _id order with their versions; filter on the rows as find sees them; batchSize and getMore', async () => {
    await createVersioned(h.db, 'range', { maxVersions: 3 });
    for (const id of [5, 3, 1, 4, 2]) await putRow(h.db, 'range', { _id: id, g: id % 2 === 0 ? 'even' : 'odd', v: id });
    await putRow(h.db, 'range', { _id: 3, v: 30 }, { v: T + 1 });
    const first = await h.db.command({ getRange: 'range', filter: { g: 'odd' }, batchSize: 2 }, { promoteLongs: false });
    expect(first.cursor.firstBatch).toEqual([
      { _id: 1, g: [version('odd', T)], v: [version(1, T)] },
      { _id: 3, g: [version('odd', T)], v: [version(30, T + 1), version(3, T)] },
    ]);
    expect(first.cursor.ns).toBe(`${h.db.databaseName}.range`);
    expect((first.cursor.id as Long).isZero()).toBe(false);
    const more = await h.db.command({ getMore: first.cursor.id, collection: 'range' }, { promoteLongs: false });
    expect(more.cursor.nextBatch).toEqual([{ _id: 5, g: [version('odd', T)], v: [version(5, T)] }]);
    expect((more.cursor.id as Long).isZero()).toBe(true);
    const filtered = await h.db.command({ getRange: 'range', filter: { v: 30 }, maxVersions: 1 }, { promoteLongs: false });
    expect(filtered.cursor.firstBatch).toEqual([{ _id: 3, g: [version('odd', T)], v: [version(30, T + 1)] }]);
  });

  test('timeRange skips rows with nothing in range; a missing collection is an empty cursor', async () => {
    const reply = await h.db.command({ getRange: 'range', timeRange: [T + 1, T + 2] }, { promoteLongs: false });
    expect(reply.cursor.firstBatch).toEqual([{ _id: 3, v: [version(30, T + 1)] }]);
    expect(await h.db.command({ getRange: 'missing' })).toEqual({ cursor: { firstBatch: [], id: 0, ns: `${h.db.databaseName}.missing` }, ok: 1 });
  });

  test('argument errors: bad filter, maxVersions, timeRange, batchSize; not versioned', async () => {
    let err = await errorOf(() => h.db.command({ getRange: 'range', filter: { $bad: 1 } }));
    expect([err.code, err.codeName, err.errmsg]).toEqual([
      2,
      'BadValue',
      "unknown top level operator: $bad. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.",
    ]);
    err = await errorOf(() => h.db.command({ getRange: 'range', maxVersions: 0 }));
    expect([err.code, err.errmsg]).toEqual([2, 'getRange.maxVersions must be an integer from 1 to 2147483647, but received 0']);
    err = await errorOf(() => h.db.command({ getRange: 'range', timeRange: [2, 1] }));
    expect([err.code, err.errmsg]).toEqual([
      2,
      'getRange.timeRange must be [start, end]: two timestamps in ms (integers or Dates) with 0 <= start < end, versions from start included to end excluded, but received [ 2, 1 ]',
    ]);
    err = await errorOf(() => h.db.command({ getRange: 'range', batchSize: -1 }));
    expect([err.code, err.errmsg]).toEqual([51024, "BSON field 'batchSize' value must be >= 0, actual value '-1'"]);
    await h.db.createCollection('plain3');
    err = await errorOf(() => h.db.command({ getRange: 'plain3' }));
    expect([err.code, err.codeName]).toEqual([20, 'IllegalOperation']);
  });
});
