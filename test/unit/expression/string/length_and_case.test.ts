/**
 * `$strLenBytes`, `$strLenCP`, `$toLower`, `$toUpper` and `$strcasecmp` (mongod 8.2): UTF-8 byte
 * and code point lengths as Int32, ASCII-only case mapping of coerced strings, and the
 * case-blind byte comparison.
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long, Timestamp } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { s: 'Héllo', n: null, emoji: '😀a' };

describe('$strLenBytes', () => valueRows([
  ['ASCII', { $strLenBytes: 'abc' }, 3],
  ['2-byte é', { $strLenBytes: 'é' }, 2],
  ['3-byte CJK', { $strLenBytes: '寿司' }, 6],
  ['4-byte emoji', { $strLenBytes: '😀' }, 4],
  ['the empty string', { $strLenBytes: '' }, 0],
  ['an embedded NUL counts', { $strLenBytes: 'a\0b' }, 3],
  ['a field', { $strLenBytes: '$s' }, 6],
  ['a one-element array of arguments', { $strLenBytes: ['xy'] }, 2],
], DOC));

describe('$strLenBytes errors', () => errorRows([
  ['null', { $strLenBytes: null }, 34473, '$strLenBytes requires a string argument, found: null'],
  ['a missing field', { $strLenBytes: '$nope' }, 34473, '$strLenBytes requires a string argument, found: missing'],
  ['a number', { $strLenBytes: 5 }, 34473, '$strLenBytes requires a string argument, found: int'],
  ['two arguments', { $strLenBytes: ['a', 'b'] }, 16020, 'Expression $strLenBytes takes exactly 1 arguments. 2 were passed in.'],
]));

describe('$strLenCP', () => valueRows([
  ['ASCII', { $strLenCP: 'abc' }, 3],
  ['é is one code point', { $strLenCP: 'é' }, 1],
  ['e and a combining accent are two', { $strLenCP: 'e\u0301' }, 2],
  ['an emoji is one code point (two UTF-16 units)', { $strLenCP: '$emoji' }, 2],
  ['the empty string', { $strLenCP: '' }, 0],
], DOC));

describe('$strLenCP errors', () => errorRows([
  ['null', { $strLenCP: '$n' }, 34471, '$strLenCP requires a string argument, found: null'],
  ['a double', { $strLenCP: 1.5 }, 34471, '$strLenCP requires a string argument, found: double'],
  ['no argument', { $strLenCP: [] }, 16020, 'Expression $strLenCP takes exactly 1 arguments. 0 were passed in.'],
], DOC));

describe('$toLower and $toUpper', () => valueRows([
  ['ASCII lowered', { $toLower: 'HeLLo' }, 'hello'],
  ['ASCII raised', { $toUpper: 'HeLLo' }, 'HELLO'],
  ['non-ASCII letters are kept', { $toUpper: 'éß' }, 'éß'],
  ['non-ASCII letters are kept (lower)', { $toLower: 'ÉΣ' }, 'ÉΣ'],
  ['null is the empty string', { $toUpper: null }, ''],
  ['missing is the empty string', { $toLower: '$nope' }, ''],
  ['an Int32 as text', { $toUpper: 42 }, '42'],
  ['an Int64 as text', { $toUpper: Long.fromNumber(-7) }, '-7'],
  ['a double as %g', { $toUpper: 1.5e20 }, '1.5E+20'],
  ['an integral Double', { $toLower: new Double(3) }, '3'],
  ['a Decimal128', { $toUpper: Decimal128.fromString('1.50') }, '1.50'],
  ['a date in ISO form', { $toLower: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) }, '2024-01-02t03:04:05.006z'],
  ['a timestamp as mongod prints it', { $toLower: new Timestamp({ t: 1704067200, i: 1 }) }, 'jan  1 00:00:00:1'],
  ['a timestamp with a two-digit day', { $toUpper: new Timestamp({ t: 1721500800, i: 42 }) }, 'JUL 20 18:40:00:42'],
]));

describe('$toLower and $toUpper errors', () => errorRows([
  ['an object', { $toLower: { $literal: { a: 1 } } }, 16007, "can't convert from BSON type object to String"],
  ['a boolean', { $toUpper: true }, 16007, "can't convert from BSON type bool to String"],
  ['two arguments', { $toUpper: ['a', 'b'] }, 16020, 'Expression $toUpper takes exactly 1 arguments. 2 were passed in.'],
]));

describe('$strcasecmp', () => valueRows([
  ['equal ignoring ASCII case', { $strcasecmp: ['Hello', 'hELLO'] }, 0],
  ['less', { $strcasecmp: ['apple', 'Banana'] }, -1],
  ['greater', { $strcasecmp: ['b', 'A'] }, 1],
  ['a prefix is less', { $strcasecmp: ['ab', 'abc'] }, -1],
  ['non-ASCII case is not folded', { $strcasecmp: ['é', 'É'] }, 1],
  ['null is the empty string', { $strcasecmp: [null, ''] }, 0],
  ['missing is the empty string', { $strcasecmp: ['$nope', 'a'] }, -1],
  ['numbers are coerced', { $strcasecmp: [10, '10'] }, 0],
  ['code point order: U+FFFD before an emoji (UTF-16 order says after)', { $strcasecmp: ['\uFFFD', '😀'] }, -1],
]));

describe('$strcasecmp errors', () => errorRows([
  ['one argument', { $strcasecmp: ['a'] }, 16020, 'Expression $strcasecmp takes exactly 2 arguments. 1 were passed in.'],
  ['an array argument', { $strcasecmp: [[1], 'a'] }, 16007, "can't convert from BSON type array to String"],
]));
