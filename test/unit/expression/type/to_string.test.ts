/**
 * `$toString` (mongod 8.2, conformance cases of core/operator/expressions/string/toString):
 * doubles in shortest digits with `%g`-style exponents, Decimal128 exactly, dates in ISO form
 * for years 0–9999, ObjectIds as hex, BinData in the `auto` format.
 */
import { describe } from 'vitest';
import { Binary, Decimal128, Long, ObjectId } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

describe('$toString', () => {
  valueRows([
    ['a fraction', { $toString: 3.14 }, '3.14'],
    ['a whole double has no point', { $toString: 3.0 }, '3'],
    ['negative zero', { $toString: -0 }, '-0'],
    ['NaN', { $toString: NaN }, 'NaN'],
    ['-Infinity', { $toString: -Infinity }, '-Infinity'],
    ['1e16 in exponent form', { $toString: 1e16 }, '1e+16'],
    ['1e15 in full', { $toString: 1e15 }, '1000000000000000'],
    ['9e-05 with a two-digit exponent', { $toString: 9e-5 }, '9e-05'],
    ['0.0001 in full', { $toString: 1e-4 }, '0.0001'],
    ['17 significant digits where needed', { $toString: { $add: [0.1, 0.2] } }, '0.30000000000000004'],
    ['the largest double', { $toString: 1.7976931348623157e308 }, '1.7976931348623157e+308'],
    ['the smallest subnormal', { $toString: 5e-324 }, '5e-324'],
    ['an Int32', { $toString: -7 }, '-7'],
    ['an Int64', { $toString: Long.fromString('9223372036854775807') }, '9223372036854775807'],
    ['a Decimal128 keeps its digits', { $toString: Decimal128.fromString('1.50') }, '1.50'],
    ['a Decimal128 in exponent form', { $toString: Decimal128.fromString('1E+40') }, '1E+40'],
    ['true', { $toString: true }, 'true'],
    ['an ObjectId as hex', { $toString: new ObjectId('507f1f77bcf86cd799439011') }, '507f1f77bcf86cd799439011'],
    ['a date', { $toString: new Date(Date.UTC(2024, 5, 15, 12, 30, 45, 123)) }, '2024-06-15T12:30:45.123Z'],
    ['a date of year 1, four digits', { $toString: new Date(-62135596800000) }, '0001-01-01T00:00:00.000Z'],
    ['a date before the epoch', { $toString: new Date(-1000) }, '1969-12-31T23:59:59.000Z'],
    ['a BinData in base64', { $toString: new Binary(Buffer.from('hello'), 0) }, 'aGVsbG8='],
    ['an old binary includes its inner length', { $toString: new Binary(Buffer.from('hello'), 2) }, 'BQAAAGhlbGxv'],
    [
      'a 16-byte UUID as a UUID',
      { $toString: new Binary(Buffer.from('123456781234123412341234567890ab', 'hex'), 4) },
      '12345678-1234-1234-1234-1234567890ab',
    ],
    ['a string is itself', { $toString: 'x' }, 'x'],
    ['null is null', { $toString: null }, null],
  ]);
  errorRows([
    ['a year past 9999', { $toString: new Date(253402300800000) }, 18537, 'Could not convert date to string: date component was outside the supported range of 0-9999: 10000'],
    ['an object', { $toString: { $literal: { a: 1 } } }, 241, 'Unsupported conversion from object to string in $convert with no onError value'],
    ['a regex', { $toString: /a/ }, 241, 'Unsupported conversion from regex to string in $convert with no onError value'],
  ]);
});
