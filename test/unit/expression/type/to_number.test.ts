/**
 * `$toInt`, `$toLong`, `$toDouble`, `$toDecimal` and `$isNumber` (mongod 8.2's conversion valueRows,
 * the conformance cases of core/operator/expressions/type): truncation and range of integers,
 * the string grammars, bools, dates and BinData in either byte order.
 */
import { describe } from 'vitest';
import { Binary, Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const bytes = (...b: number[]) => new Binary(Uint8Array.from(b), 0);

describe('$toInt', () => {
  valueRows([
    ['an Int32 is itself', { $toInt: 42 }, 42],
    ['a double truncates toward zero', { $toInt: -2.9 }, -2],
    ['a Decimal128 truncates toward zero', { $toInt: Decimal128.fromString('7.99') }, 7],
    ['an Int64 in range', { $toInt: Long.fromNumber(-5) }, -5],
    ['true is 1', { $toInt: true }, 1],
    ['a base-10 string with sign and leading zeros', { $toInt: '+0042' }, 42],
    ['"-0" is 0', { $toInt: '-0' }, 0],
    ['the Int32 bounds as strings', { $toInt: '-2147483648' }, -2147483648],
    ['null is null', { $toInt: null }, null],
    ['a missing field is null', { $toInt: '$nope' }, null],
    ['a one-element literal array is unwrapped', { $toInt: [true] }, 1],
    ['a 1-byte BinData is signed', { $toInt: bytes(0x80) }, -128],
    ['a 2-byte BinData little-endian', { $toInt: bytes(0xff, 0x7f) }, 32767],
    ['a 4-byte BinData little-endian', { $toInt: bytes(0x00, 0x00, 0x00, 0x80) }, -2147483648],
    ['an old-binary (subtype 2) BinData counts its inner length', { $toInt: new Binary(new Uint8Array(0), 2) }, 0],
  ]);
  errorRows([
    ['a double out of range', { $toInt: 1e20 }, 241, 'Conversion would overflow target type in $convert with no onError value: 1.0e+20'],
    ['NaN', { $toInt: NaN }, 241, 'Attempt to convert NaN value to integer type in $convert with no onError value'],
    ['Infinity', { $toInt: Infinity }, 241, 'Attempt to convert infinity value to integer type in $convert with no onError value'],
    ['a Decimal128 out of range', { $toInt: Decimal128.fromString('3E+9') }, 241, 'Conversion would overflow target type in $convert with no onError value: 3E+9'],
    ['an Int64 out of range', { $toInt: Long.fromString('2147483648') }, 241, 'Conversion would overflow target type in $convert with no onError value: '],
    ['a decimal string', { $toInt: '3.14' }, 241, "Failed to parse number '3.14' in $convert with no onError value: Did not consume whole string."],
    ['a leading space', { $toInt: ' 1' }, 241, "Failed to parse number ' 1' in $convert with no onError value: Did not consume whole string."],
    ['an empty string', { $toInt: '' }, 241, "Failed to parse number '' in $convert with no onError value: No digits"],
    ['a hexadecimal string', { $toInt: '0x0' }, 241, 'Illegal hexadecimal input in $convert with no onError value: 0x0'],
    ['a string out of range', { $toInt: '2147483648' }, 241, "Failed to parse number '2147483648' in $convert with no onError value: Overflow"],
    ['a date', { $toInt: new Date(0) }, 241, 'Unsupported conversion from date to int in $convert with no onError value'],
    ['a 3-byte BinData', { $toInt: bytes(0, 0, 0) }, 241, 'Failed to convert \'BinData(0, "000000")\' to number in $convert because of invalid length: 3'],
    ['an empty literal array', { $toInt: [] }, 50723, '$toInt takes exactly 1 arguments. 0 were passed in.'],
    ['a two-element literal array', { $toInt: [1, 2] }, 50723, '$toInt takes exactly 1 arguments. 2 were passed in.'],
  ]);
});

describe('$toLong', () => {
  valueRows([
    ['an Int32 widens', { $toLong: 42 }, Long.fromNumber(42)],
    ['a date is its milliseconds', { $toLong: new Date(-1000) }, Long.fromNumber(-1000)],
    ['a double truncates', { $toLong: 2.5 }, Long.fromNumber(2)],
    ['a string beyond Int32', { $toLong: '-9223372036854775808' }, Long.fromString('-9223372036854775808')],
    ['an 8-byte BinData', { $toLong: bytes(1, 0, 0, 0, 0, 0, 0, 0) }, Long.fromNumber(1)],
    ['big-endian through $convert', { $convert: { input: bytes(0, 0, 0, 0, 0, 0, 0, 42), to: 'long', byteOrder: 'big' } }, Long.fromNumber(42)],
  ]);
  errorRows([
    ['2^63 as a double', { $toLong: 9223372036854775808 }, 241, 'Conversion would overflow target type in $convert with no onError value: 9.223372036854776e+18'],
    ['a string beyond Int64', { $toLong: '9223372036854775808' }, 241, "Failed to parse number '9223372036854775808' in $convert with no onError value: Overflow"],
  ]);
});

describe('$toDouble', () => {
  valueRows([
    ['an Int32 becomes a Double', { $toDouble: 3 }, new Double(3)],
    ['a date is its milliseconds', { $toDouble: new Date(1500) }, new Double(1500)],
    ['false is 0', { $toDouble: false }, new Double(0)],
    ['a Decimal128', { $toDouble: Decimal128.fromString('2.5') }, 2.5],
    ['".5"', { $toDouble: '.5' }, 0.5],
    ['"-0" is negative zero', { $toDouble: '-0' }, -0],
    ['scientific notation', { $toDouble: '1.5e-3' }, 1.5e-3],
    ['"inf"', { $toDouble: 'inf' }, Infinity],
    ['"-Infinity"', { $toDouble: '-Infinity' }, -Infinity],
    ['a hexadecimal float', { $toDouble: '+0x1.8p1' }, new Double(3)],
    ['a hexadecimal integer', { $toDouble: '0X1P0' }, new Double(1)],
    ['an 8-byte BinData', { $toDouble: new Binary(Uint8Array.from([0, 0, 0, 0, 0, 0, 0x45, 0x40]), 0) }, new Double(42)],
  ]);
  errorRows([
    ['a Decimal128 beyond the doubles', { $toDouble: Decimal128.fromString('1E+400') }, 241, 'Conversion would overflow target type in $convert with no onError value: 1E+400'],
    ['a Decimal128 below the doubles', { $toDouble: Decimal128.fromString('1E-400') }, 241, 'Conversion would overflow target type in $convert with no onError value: 1E-400'],
    ['"1e309" overflows', { $toDouble: '1e309' }, 241, "Failed to parse number '1e309' in $convert with no onError value: Out of range"],
    ['"1e-400" underflows', { $toDouble: '1e-400' }, 241, "Failed to parse number '1e-400' in $convert with no onError value: Out of range"],
    ['"0x" has no digits', { $toDouble: '0x' }, 241, "Failed to parse number '0x' in $convert with no onError value: Did not consume whole string."],
    ['a trailing space', { $toDouble: '1 ' }, 241, "Failed to parse number '1 ' in $convert with no onError value: Did not consume whole string."],
  ]);
});

describe('$toDecimal', () => {
  valueRows([
    ['a double keeps 15 significant digits', { $toDecimal: 2.5 }, Decimal128.fromString('2.50000000000000')],
    ['a double rounds at 15 digits', { $toDecimal: 1.234567890123456 }, Decimal128.fromString('1.23456789012346')],
    ['an Int64 exactly', { $toDecimal: Long.fromString('9223372036854775807') }, Decimal128.fromString('9223372036854775807')],
    ['true is 1', { $toDecimal: true }, Decimal128.fromString('1')],
    ['a date is its milliseconds', { $toDecimal: new Date(86400000) }, Decimal128.fromString('86400000')],
    ['a string keeps its exponent', { $toDecimal: '1.50' }, Decimal128.fromString('1.50')],
    ['35 digits keep the first 34', { $toDecimal: '12345678901234567890123456789012345' }, Decimal128.fromString('1.234567890123456789012345678901234E+34')],
    ['"-NaN" keeps its sign', { $toDecimal: '-NaN' }, Decimal128.fromString('-NaN')],
  ]);
  errorRows([
    ['a hexadecimal string', { $toDecimal: '0x4301' }, 241, "Failed to parse number '0x4301' in $convert with no onError value: Failed to parse string to decimal"],
    ['an exponent beyond Decimal128', { $toDecimal: '1E+6145' }, 241, "Failed to parse number '1E+6145' in $convert with no onError value: Failed to parse string to decimal"],
    ['an exponent below Decimal128', { $toDecimal: '1E-6177' }, 241, "Failed to parse number '1E-6177' in $convert with no onError value: Failed to parse string to decimal"],
  ]);
});

describe('$isNumber', () => {
  valueRows([
    ['an Int32', { $isNumber: 1 }, true],
    ['an Int64', { $isNumber: Long.fromNumber(1) }, true],
    ['a Double', { $isNumber: 1.5 }, true],
    ['a Decimal128', { $isNumber: Decimal128.fromString('1') }, true],
    ['a numeric string', { $isNumber: '1' }, false],
    ['null', { $isNumber: null }, false],
    ['a missing field', { $isNumber: '$nope' }, false],
  ]);
});
