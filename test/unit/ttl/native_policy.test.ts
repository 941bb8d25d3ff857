import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long, ObjectId, Timestamp } from '../../../src/bson/library.js';
import { parsePath } from '../../../src/storage/values/paths.js';
import { checkIndexTtl, collModSeconds, earliestDateMs, expireAfterSecondsProblem, isBtreeKey, nativeExpiryMs } from '../../../src/ttl/policies/native.js';
import { thrownCommandError as errorOf } from '../thrown.js';

const dec = (s: string) => Decimal128.fromString(s);


describe('expireAfterSecondsProblem (mongod 8.2 validateExpireAfterSeconds)', () => {
  const LESS = "TTL index 'expireAfterSeconds' option cannot be less than 0";
  const NAN = "TTL index 'expireAfterSeconds' option must not be NaN";
  const RANGE = "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer";
  test.each([
    [3600, null],
    [Long.fromNumber(3600), null],
    [new Double(3600), null],
    [dec('3600'), null],
    [0, null],
    [-0, null],
    [dec('-0'), null],
    [3600.5, null],
    [-0.9, null],
    [2147483647, null],
    [-1, LESS],
    [Long.fromNumber(-1), LESS],
    [new Double(-1), LESS],
    [dec('-1'), LESS],
    [-2147483648, LESS],
    [NaN, NAN],
    [dec('NaN'), NAN],
    [2147483648, RANGE],
    [Long.fromString('2147483648'), RANGE],
    [Long.MAX_VALUE, RANGE],
    [dec('10002147483648'), RANGE],
    [Infinity, RANGE],
    [-Infinity, RANGE],
    [dec('Infinity'), RANGE],
    [dec('-Infinity'), RANGE],
  ] as const)('%s → %s', (value, want) => expect(expireAfterSecondsProblem(value)).toBe(want));

  test.each([
    ['3600', 'string'],
    [true, 'bool'],
    [null, 'null'],
    [{}, 'object'],
    [[], 'array'],
    [new Date(0), 'date'],
    [new ObjectId('507f1f77bcf86cd799439011'), 'objectId'],
    [new Timestamp({ t: 1, i: 1 }), 'timestamp'],
  ] as const)('non-numeric %s names its type without a closing quote', (value, type) => {
    expect(expireAfterSecondsProblem(value)).toBe(`TTL index 'expireAfterSeconds' option must be numeric, but received a type of '${type}`);
  });
});

describe('checkIndexTtl (createIndexes)', () => {
  test('returns the value to store as an Int32, truncated', () => {
    expect(checkIndexTtl(60.9, { t: 1 }, {})).toBe(60);
    expect(checkIndexTtl(Long.fromNumber(60), { t: 1 }, {})).toBe(60);
    expect(checkIndexTtl(dec('3600.5'), { t: 1 }, {})).toBe(3600);
    expect(Object.is(checkIndexTtl(-0, { t: 1 }, {}), 0)).toBe(true);
  });

  test('wraps a bad value with the spec as sent (67)', () => {
    const raw = { key: { w: 1 }, expireAfterSeconds: -1, name: 'w_1' };
    const err = errorOf(() => checkIndexTtl(-1, { w: 1 }, raw));
    expect(err.code).toBe(67);
    expect(err.codeName).toBe('CannotCreateIndex');
    expect(err.message).toBe(
      `. Index spec: { key: { w: 1 }, expireAfterSeconds: -1, name: "w_1" } :: caused by :: TTL index 'expireAfterSeconds' option cannot be less than 0`,
    );
  });

  test('refuses a compound key (67, no "caused by")', () => {
    const raw = { key: { a: 1, b: 1 }, name: 'a_1_b_1', expireAfterSeconds: 10 };
    const err = errorOf(() => checkIndexTtl(10, { a: 1, b: 1 }, raw));
    expect(err.code).toBe(67);
    expect(err.message).toBe(
      'TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: { key: { a: 1, b: 1 }, name: "a_1_b_1", expireAfterSeconds: 10 }',
    );
  });
});

describe('collModSeconds (IDL safeInt)', () => {
  test.each([
    [50, 50],
    [Long.fromNumber(50), 50],
    [new Double(50), 50],
    [50.7, 50],
    [dec('50.4'), 50],
    [dec('50.5'), 50],
    [dec('50.7'), 51],
    [dec('51.5'), 52],
    [-0.9, 0],
    [2147483648, 2147483647],
    [Long.fromString('2147483648'), 2147483647],
    [Infinity, 2147483647],
    [dec('Infinity'), 2147483647],
    [NaN, 0],
    [dec('NaN'), 0],
    [-1.5, -1],
    [-Infinity, -2147483648],
  ] as const)('%s → %s', (value, want) => expect(collModSeconds(value)).toBe(want));
});

describe('isBtreeKey', () => {
  test.each([
    [{ t: 1 }, true],
    [{ t: -1 }, true],
    [{ t: new Double(1) }, true],
    [{ t: 'hashed' }, false],
    [{ t: '2dsphere' }, false],
    [{ t: 'text' }, false],
  ] as const)('%s → %s', (key, want) => expect(isBtreeKey(key)).toBe(want));
});

describe('earliestDateMs / nativeExpiryMs', () => {
  const t = parsePath('t');
  test('a Date field', () => {
    expect(earliestDateMs({ t: new Date(5000) }, t)).toBe(5000);
    expect(nativeExpiryMs({ t: new Date(5000) }, t, 10)).toBe(15_000);
  });

  test('the earliest Date of an array governs; non-Dates are ignored', () => {
    const doc = { t: [new Date(9000), 'x', new Date(3000), 7, new Date(6000)] };
    expect(earliestDateMs(doc, t)).toBe(3000);
    expect(nativeExpiryMs(doc, t, 0)).toBe(3000);
  });

  test('dates before 1970 count', () => {
    expect(earliestDateMs({ t: new Date(-86_400_000) }, t)).toBe(-86_400_000);
  });

  test.each([
    ['missing', {}],
    ['null', { t: null }],
    ['a string', { t: '2020-01-01' }],
    ['a number', { t: 1000 }],
    ['a Timestamp', { t: new Timestamp({ t: 1, i: 1 }) }],
    ['an ObjectId', { t: new ObjectId('507f1f77bcf86cd799439011') }],
    ['an empty array', { t: [] }],
    ['a Date nested two arrays deep', { t: [[new Date(0)]] }],
  ] as const)('%s never expires', (_name, doc) => {
    expect(earliestDateMs(doc, t)).toBeUndefined();
    expect(nativeExpiryMs(doc, t, 0)).toBe(Infinity);
  });

  test('dotted paths through arrays of documents', () => {
    const doc = { a: [{ b: new Date(8000) }, { b: new Date(2000) }, { c: 1 }] };
    expect(earliestDateMs(doc, parsePath('a.b'))).toBe(2000);
    expect(earliestDateMs({ a: { b: new Date(4000) } }, parsePath('a.b'))).toBe(4000);
  });
});
