import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson.js';
import { exactInt32, isNaNNumber, safeNumberInt, safeNumberLong } from '../../../src/ttl/seconds.js';

const dec = (s: string) => Decimal128.fromString(s);

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
    [Infinity, 9223372036854775807, 2147483647],
    [-Infinity, -9223372036854775807, -2147483648],
    [dec('50.4'), 50, 50],
    [dec('50.5'), 50, 50],
    [dec('51.5'), 52, 52],
    [dec('50.7'), 51, 51],
    [dec('-0.5'), 0, 0],
    [dec('NaN'), 0, 0],
    [dec('Infinity'), 9223372036854775807, 2147483647],
    [dec('10002147483648'), 10002147483648, 2147483647],
    [dec('3600.5'), 3600, 3600],
  ] as const)('%s → long %s, int %s', (v, long, int) => {
    expect(safeNumberLong(v)).toBe(long);
    expect(safeNumberInt(v)).toBe(int);
  });

  test('a non-number is NaN', () => {
    expect(safeNumberLong('60')).toBeNaN();
    expect(safeNumberInt(null)).toBeNaN();
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
