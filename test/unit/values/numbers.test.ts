import { describe, expect, test } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson.js';
import { bsonTypeOf } from '../../../src/storage/values/bson_type.js';
import { addNumbers, multiplyNumbers } from '../../../src/storage/values/numbers.js';

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
