/**
 * `$substr`/`$substrBytes` (UTF-8 bytes, never cutting a character) and `$substrCP` (code
 * points), mongod 8.2: coerced strings, numeric indexes read as mongod's `coerceToLong` (doubles
 * truncated, Decimal128 rounded half to even) and `integral()` checks.
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

describe('$substrBytes', () => valueRows([
  ['ASCII', { $substrBytes: ['hello', 1, 3] }, 'ell'],
  ['a negative length is the rest', { $substrBytes: ['hello', 2, -1] }, 'llo'],
  ['a length past the end stops at the end', { $substrBytes: ['hello', 3, 100] }, 'lo'],
  ['a start past the end is empty', { $substrBytes: ['hello', 10, 2] }, ''],
  ['whole characters of UTF-8', { $substrBytes: ['café', 3, 2] }, 'é'],
  ['a double start is truncated', { $substrBytes: ['hello', 1.9, 2] }, 'el'],
  ['an Int64 length', { $substrBytes: ['hello', 0, Long.fromNumber(2)] }, 'he'],
  ['a Decimal128 start rounds half to even (0.5 → 0)', { $substrBytes: ['hello', Decimal128.fromString('0.5'), 1] }, 'h'],
  ['a Decimal128 start rounds half to even (1.5 → 2)', { $substrBytes: ['hello', Decimal128.fromString('1.5'), 1] }, 'l'],
  ['a huge Decimal128 length is negative after saturation: the rest', { $substrBytes: ['hello', 1, Decimal128.fromString('1E+100')] }, 'ello'],
  ['null is the empty string', { $substrBytes: [null, 0, 1] }, ''],
  ['a number is coerced', { $substrBytes: [12345, 1, 2] }, '23'],
  ['$substr is the same operator', { $substr: ['hello', 0, 2] }, 'he'],
]));

describe('$substrBytes errors', () => errorRows([
  ['a non-numeric start', { $substrBytes: ['hello', 'a', 1] }, 16034, '$substrBytes:  starting index must be a numeric type (is BSON type string)'],
  ['a null start', { $substrBytes: ['hello', null, 1] }, 16034, '$substrBytes:  starting index must be a numeric type (is BSON type null)'],
  ['a non-numeric length', { $substrBytes: ['hello', 0, true] }, 16035, '$substrBytes:  length must be a numeric type (is BSON type bool)'],
  ['a negative start', { $substrBytes: ['hello', -1, 1] }, 50752, '$substrBytes:  starting index must be non-negative (got: -1)'],
  ['a Decimal128 -0.6 start rounds to -1', { $substrBytes: ['hello', Decimal128.fromString('-0.6'), 1] }, 50752, '$substrBytes:  starting index must be non-negative (got: -1)'],
  ['a Decimal128 NaN start saturates negative', { $substrBytes: ['hello', Decimal128.fromString('NaN'), 1] }, 50752, '$substrBytes:  starting index must be non-negative (got: -9223372036854775808)'],
  ['a NaN double start', { $substrBytes: ['hello', NaN, 1] }, 31109, "Can't coerce out of range value nan to long"],
  ['a 1e20 double length', { $substrBytes: ['hello', 0, 1e20] }, 31109, "Can't coerce out of range value 1e+20 to long"],
  ['a start inside a character', { $substrBytes: ['é', 1, 1] }, 28656, '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.'],
  ['an end inside a character', { $substrBytes: ['éa', 0, 1] }, 28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.'],
  ['a Decimal128 length rounding into a character', { $substrBytes: ['café', 0, Decimal128.fromString('3.5')] }, 28657, '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.'],
  ['a non-coercible string', { $substrBytes: [true, 0, 1] }, 16007, "can't convert from BSON type bool to String"],
  ['two arguments (named as $substrBytes)', { $substr: ['a', 1] }, 16020, 'Expression $substrBytes takes exactly 3 arguments. 2 were passed in.'],
]));

describe('$substrCP', () => valueRows([
  ['ASCII', { $substrCP: ['hello', 1, 3] }, 'ell'],
  ['code points, not bytes', { $substrCP: ['café!', 3, 2] }, 'é!'],
  ['an emoji is one code point', { $substrCP: ['a😀b', 1, 1] }, '😀'],
  ['a count past the end stops at the end', { $substrCP: ['abc', 1, 10] }, 'bc'],
  ['a start past the end is empty', { $substrCP: ['abc', 5, 1] }, ''],
  ['an integral double', { $substrCP: ['hello', 1.0, new Double(2)] }, 'el'],
  ['an integral Decimal128', { $substrCP: ['hello', Decimal128.fromString('2.00'), 1] }, 'l'],
  ['an Int64 within Int32', { $substrCP: ['hello', Long.fromNumber(4), 1] }, 'o'],
  ['null is the empty string', { $substrCP: ['$nope', 0, 2] }, ''],
  ['a zero count', { $substrCP: ['hello', 1, 0] }, ''],
]));

describe('$substrCP errors', () => errorRows([
  ['a non-numeric start', { $substrCP: ['hello', 'x', 1] }, 34450, '$substrCP: starting index must be a numeric type (is BSON type string)'],
  ['a fractional start', { $substrCP: ['hello', 1.5, 1] }, 34451, '$substrCP: starting index cannot be represented as a 32-bit integral value: 1.5'],
  ['a start beyond Int32', { $substrCP: ['hello', Long.fromNumber(2 ** 31), 1] }, 34451, '$substrCP: starting index cannot be represented as a 32-bit integral value: 2147483648'],
  ['a missing count', { $substrCP: ['hello', 0, '$nope'] }, 34452, '$substrCP: length must be a numeric type (is BSON type missing)'],
  ['a fractional count', { $substrCP: ['hello', 0, Decimal128.fromString('0.5')] }, 34453, '$substrCP: length cannot be represented as a 32-bit integral value: 0.5'],
  ['a negative count', { $substrCP: ['hello', 0, -1] }, 34454, '$substrCP: length must be a nonnegative integer.'],
  ['a negative start', { $substrCP: ['hello', -1, 1] }, 34455, '$substrCP: the starting index must be nonnegative integer.'],
  ['a negative count is reported before a negative start', { $substrCP: ['hello', -1, -1] }, 34454, '$substrCP: length must be a nonnegative integer.'],
]));
