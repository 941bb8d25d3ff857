/** values/numeric.ts: the one module of numeric conversion and widening rules. */
import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { bsonTypeOf } from '../../../src/storage/values/bson_type.js';
import {
  addNumbers,
  appendNumber,
  coerceToLong,
  exactInt32,
  exactInt64,
  integerOf,
  intOrLong,
  isNaNNumber,
  multiplyNumbers,
  parseIntegerToInt,
  parseIntegerToLong,
  parseIntegerToNonNegativeLong,
  safeNumberInt,
  safeNumberLong,
} from '../../../src/storage/values/numeric.js';

const dec = (s: string) => Decimal128.fromString(s);

/** [type, printed value] of a result. */
const typed = (v: unknown): [string, string] => [bsonTypeOf(v), String(v instanceof Double ? v.value : v)];

describe('addNumbers', () => {
  test.each([
    [1, 2, ['int', '3']],
    [2147483647, 1, ['long', '2147483648']],
    [-2147483648, -1, ['long', '-2147483649']],
    [1, Long.fromNumber(2), ['long', '3']],
    [Long.MAX_VALUE, Long.fromNumber(1), ['double', '9223372036854776000']],
    [1, 1.5, ['double', '2.5']],
    [1, new Double(1), ['double', '2']],
    [Long.fromNumber(1), 0.5, ['double', '1.5']],
    [Decimal128.fromString('1.0'), 1, ['decimal', '2.0']],
    [Decimal128.fromString('1'), 1.5, ['decimal', '2.50000000000000']],
    [Decimal128.fromString('0.1'), Decimal128.fromString('0.2'), ['decimal', '0.3']],
    [Decimal128.fromString('1E+6144'), Decimal128.fromString('1E+6144'), ['decimal', '2.000000000000000000000000000000000E+6144']],
    [Decimal128.fromString('Infinity'), Decimal128.fromString('-Infinity'), ['decimal', 'NaN']],
    [Decimal128.fromString('9999999999999999999999999999999999'), 1, ['decimal', '1.000000000000000000000000000000000E+34']],
  ] as Array<[unknown, unknown, [string, string]]>)('%s + %s', (a, b, expected) => {
    expect(typed(addNumbers(a, b))).toEqual(expected);
  });
  test('a Double result keeps its type even when integral', () => {
    const r = addNumbers(0.5, 0.5);
    expect(r).toBeInstanceOf(Double);
    expect((r as Double).value).toBe(1);
  });
});

describe('multiplyNumbers', () => {
  test.each([
    [3, 4, ['int', '12']],
    [-1, 0, ['int', '0']],
    [65536, 65536, ['long', '4294967296']],
    [2147483647, 2147483647, ['long', '4611686014132420609']],
    [Long.fromNumber(3), 4, ['long', '12']],
    [Long.MAX_VALUE, 2, ['double', '18446744073709552000']],
    [2, 1.5, ['double', '3']],
    [Decimal128.fromString('1.5'), 2, ['decimal', '3.0']],
    [Decimal128.fromString('Infinity'), 0, ['decimal', 'NaN']],
    [Decimal128.fromString('-2'), Decimal128.fromString('Infinity'), ['decimal', '-Infinity']],
  ] as Array<[unknown, unknown, [string, string]]>)('%s * %s', (a, b, expected) => {
    expect(typed(multiplyNumbers(a, b))).toEqual(expected);
  });
});

describe('safeNumberLong / safeNumberInt (mongod BSONElement semantics)', () => {
  test.each([
    [60, 60, 60],
    [60.9, 60, 60],
    [-0.9, 0, 0],
    [-1.5, -1, -1],
    [new Double(3600), 3600, 3600],
    [Long.fromNumber(3600), 3600, 3600],
    [Long.fromString('2147483648'), 2147483648, 2147483647],
    [Long.fromString('-2147483649'), -2147483649, -2147483648],
    [NaN, 0, 0],
    [Infinity, 9223372036854775807n, 2147483647],
    [-Infinity, -9223372036854775808n, -2147483648],
    [dec('50.4'), 50, 50],
    [dec('50.5'), 50, 50],
    [dec('51.5'), 52, 52],
    [dec('50.7'), 51, 51],
    [dec('-0.5'), 0, 0],
    [dec('NaN'), 0, 0],
    [dec('Infinity'), 9223372036854775807n, 2147483647],
    [dec('-Infinity'), -9223372036854775808n, -2147483648],
    [dec('10002147483648'), 10002147483648n, 2147483647],
    [dec('1E+6000'), 9223372036854775807n, 2147483647],
    [dec('3600.5'), 3600, 3600],
  ] as const)('%s → long %s, int %s', (v, long, int) => {
    expect(safeNumberLong(v)).toBe(BigInt(long));
    expect(safeNumberInt(v)).toBe(int);
  });

  test('a non-number is undefined', () => {
    expect(safeNumberLong('60')).toBeUndefined();
    expect(safeNumberInt(null)).toBeUndefined();
  });
});

describe('isNaNNumber', () => {
  test.each([
    [NaN, true],
    [dec('NaN'), true],
    [1, false],
    [dec('1'), false],
    ['NaN', false],
  ] as const)('%s → %s', (v, want) => expect(isNaNNumber(v)).toBe(want));
});

describe('exactInt32', () => {
  test.each([
    [60, 60],
    [new Double(60), 60],
    [Long.fromNumber(-1), -1],
    [dec('60'), 60],
    [dec('6.0E+1'), 60],
    [dec('60.00'), 60],
    [2147483647, 2147483647],
    [Long.fromString('2147483647'), 2147483647],
    [dec('-2147483648'), -2147483648],
  ] as const)('%s is the integer %s', (v, want) => expect(exactInt32(v)).toBe(want));

  test.each([
    [60.5],
    [2147483648],
    [Long.fromString('2147483648')],
    [dec('60.5')],
    [dec('2147483648')],
    [dec('1E+20')],
    [NaN],
    [Infinity],
    [dec('NaN')],
    ['60'],
    [true],
    [null],
  ] as const)('%s is not an Int32 integer', (v) => expect(exactInt32(v)).toBeUndefined());
});

describe('safeNumberLong (the IDL safeInt64 reading)', () => {
  const cases: Array<[string, unknown, bigint]> = [
    ['an int', 7, 7n],
    ['a negative fraction truncates toward zero', -1.9, -1n],
    ['a small negative fraction is 0', -0.5, 0n],
    ['NaN is 0', Number.NaN, 0n],
    ['a huge double saturates', 1e300, 9223372036854775807n],
    ['a huge negative double saturates', -1e300, -9223372036854775808n],
    ['an integral Double', new Double(3), 3n],
    ['a Long keeps every digit', Long.fromString('9007199254740993'), 9007199254740993n],
    ['a decimal rounds half to even (up)', Decimal128.fromString('2.5'), 2n],
    ['a decimal rounds half to even (down)', Decimal128.fromString('3.5'), 4n],
    ['a decimal above the half rounds up', Decimal128.fromString('1.6'), 2n],
  ];
  for (const [name, value, expected] of cases) {
    test(name, () => expect(safeNumberLong(value)).toBe(expected));
  }
});

describe('integerOf', () => {
  test.each([
    [7, 'exact', 7n],
    [Long.fromString('-9007199254740993'), 'exact', -9007199254740993n],
    [2.5, 'exact', undefined],
    [2.5, 'truncate', 2n],
    [-2.5, 'truncate', -2n],
    [2.5, 'halfEven', 2n],
    [3.5, 'halfEven', 4n],
    [-3.5, 'halfEven', -4n],
    [dec('2.50'), 'exact', undefined],
    [dec('2.50'), 'truncate', 2n],
    [dec('-7.5'), 'halfEven', -8n],
    [dec('6.0E+1'), 'exact', 60n],
    [NaN, 'truncate', null],
    [dec('-Infinity'), 'truncate', null],
    ['7', 'exact', undefined],
  ] as const)('%s read %s is %s', (v, rounding, want) => expect(integerOf(v, rounding)).toBe(want));
});

describe('coerceToLong ($mod)', () => {
  test.each([
    [5.9, { ok: true, value: 5n }],
    [dec('-5.9'), { ok: true, value: -5n }],
    [Long.MAX_VALUE, { ok: true, value: 9223372036854775807n }],
    [NaN, { ok: false, reason: 'Unable to coerce NaN/Inf to integral type' }],
    [dec('Infinity'), { ok: false, reason: 'Unable to coerce NaN/Inf to integral type' }],
    [1e19, { ok: false, reason: 'Out of bounds coercing to integral value' }],
    [dec('-1E+19'), { ok: false, reason: 'Out of bounds coercing to integral value' }],
  ] as const)('%s', (v, want) => expect(coerceToLong(v)).toEqual(want));
});

describe('exactInt64', () => {
  test.each([
    [9007199254740992, 9007199254740992n],
    [dec('9223372036854775807'), 9223372036854775807n],
    [dec('9223372036854775808'), undefined],
    [9223372036854775808, undefined],
    [0.5, undefined],
  ] as const)('%s → %s', (v, want) => expect(exactInt64(v)).toBe(want));
});

describe('parseIntegerToLong and friends (BSONElement::parseIntegerElementTo*)', () => {
  test.each([
    [5, { ok: true, value: 5n }],
    [new Double(5), { ok: true, value: 5n }],
    [dec('5.000'), { ok: true, value: 5n }],
    ['5', { ok: false, reason: 'Expected a number in: n: "5"' }],
    [5.5, { ok: false, reason: 'Expected an integer: n: 5.5' }],
    [NaN, { ok: false, reason: 'Expected an integer, but found NaN in: n: nan.0' }],
    [1e19, { ok: false, reason: 'Cannot represent as a 64-bit integer: n: 1e+19.0' }],
    [dec('5.5'), { ok: false, reason: 'Cannot represent as a 64-bit integer: n: 5.5' }],
    [dec('NaN'), { ok: false, reason: 'Cannot represent as a 64-bit integer: n: NaN' }],
  ] as const)('%s', (v, want) => expect(parseIntegerToLong('n', v)).toEqual(want));

  test('the Int and non-negative variants add their bounds', () => {
    expect(parseIntegerToInt('n', 2147483648)).toEqual({ ok: false, reason: 'Cannot represent as a 32-bit integer: n: 2147483648.0' });
    expect(parseIntegerToNonNegativeLong('n', -1)).toEqual({ ok: false, reason: 'Expected a non-negative number in: n: -1' });
  });
});

describe('intOrLong and appendNumber', () => {
  test('createIntOrLong: an Int32 while it fits', () => {
    expect([intOrLong(2147483647n), intOrLong(2147483648n)]).toEqual([2147483647, Long.fromString('2147483648')]);
  });
  test('BSONObjBuilder::appendNumber(long long): an Int32 below 2^30 in magnitude', () => {
    expect([appendNumber(1073741823n), appendNumber(1073741824n), appendNumber(-1073741824n)]).toEqual([1073741823, Long.fromString('1073741824'), Long.fromString('-1073741824')]);
  });
});
