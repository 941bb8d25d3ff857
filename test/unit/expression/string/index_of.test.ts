/**
 * `$indexOfBytes` and `$indexOfCP` (mongod 8.2): UTF-8 byte and code point offsets, the optional
 * start and end (exactly Int32, not negative), null for a null or missing string.
 */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

describe('$indexOfBytes', () => valueRows([
  ['found', { $indexOfBytes: ['hello', 'l'] }, 2],
  ['not found', { $indexOfBytes: ['hello', 'z'] }, -1],
  ['byte offsets count UTF-8', { $indexOfBytes: ['café!', '!'] }, 5],
  ['a multi-byte substring', { $indexOfBytes: ['日本語', '語'] }, 6],
  ['from a start', { $indexOfBytes: ['hello', 'l', 3] }, 3],
  ['an occurrence must end before the end', { $indexOfBytes: ['hello', 'll', 0, 3] }, -1],
  ['an occurrence ending at the end', { $indexOfBytes: ['hello', 'll', 0, 4] }, 2],
  ['an end past the string is the string', { $indexOfBytes: ['hello', 'o', 0, 100] }, 4],
  ['start after end', { $indexOfBytes: ['hello', 'l', 4, 2] }, -1],
  ['start past the string', { $indexOfBytes: ['hello', '', 6] }, -1],
  ['the empty substring at the start', { $indexOfBytes: ['hello', '', 2] }, 2],
  ['the empty substring at the end of the string', { $indexOfBytes: ['hello', '', 5] }, 5],
  ['null string', { $indexOfBytes: [null, 'a'] }, null],
  ['missing string', { $indexOfBytes: ['$nope', 'a'] }, null],
  ['an integral double start', { $indexOfBytes: ['hello', 'l', new Double(3)] }, 3],
  ['an integral Decimal128 start', { $indexOfBytes: ['hello', 'l', Decimal128.fromString('3')] }, 3],
  ['-0.0 is the start 0 (an Int32 answer)', { $indexOfBytes: ['hello', '', -0] }, 0],
]));

describe('$indexOfBytes errors', () => errorRows([
  ['one argument', { $indexOfBytes: ['a'] }, 28667, 'Expression $indexOfBytes takes at least 2 arguments, and at most 4, but 1 were passed in.'],
  ['five arguments', { $indexOfBytes: ['a', 'b', 0, 1, 2] }, 28667, 'Expression $indexOfBytes takes at least 2 arguments, and at most 4, but 5 were passed in.'],
  ['a non-string string', { $indexOfBytes: [1, 'a'] }, 40091, '$indexOfBytes requires a string as the first argument, found: int'],
  ['a null substring', { $indexOfBytes: ['a', null] }, 40092, '$indexOfBytes requires a string as the second argument, found: null'],
  ['a fractional start', { $indexOfBytes: ['a', 'a', 1.5] }, 40096, '$indexOfBytesrequires an integral starting index, found a value of type: double, with value: 1.5'],
  ['a start beyond Int32', { $indexOfBytes: ['a', 'a', Long.fromNumber(2 ** 32)] }, 40096, '$indexOfBytesrequires an integral starting index, found a value of type: long, with value: 4294967296'],
  ['a string start', { $indexOfBytes: ['a', 'a', 'x'] }, 40096, '$indexOfBytesrequires an integral starting index, found a value of type: string, with value: "x"'],
  ['a negative start', { $indexOfBytes: ['a', 'a', -1] }, 40097, '$indexOfBytes requires a nonnegative starting index, found: -1'],
  ['a negative end', { $indexOfBytes: ['a', 'a', 0, -2] }, 40097, '$indexOfBytes requires a nonnegative ending index, found: -2'],
]));

describe('$indexOfCP', () => valueRows([
  ['found', { $indexOfCP: ['hello', 'l'] }, 2],
  ['code points', { $indexOfCP: ['café!', '!'] }, 4],
  ['an emoji is one code point', { $indexOfCP: ['😀😀x', 'x'] }, 2],
  ['from a start', { $indexOfCP: ['日本語日本', '日', 1] }, 3],
  ['an occurrence may run past the end', { $indexOfCP: ['hello', 'llo', 0, 3] }, 2],
  ['no start before the end', { $indexOfCP: ['hello', 'o', 0, 4] }, -1],
  ['the empty substring at the start', { $indexOfCP: ['hello', '', 3] }, 3],
  ['the empty substring: a start at the length finds nothing', { $indexOfCP: ['hello', '', 5] }, -1],
  ['the empty substring: an empty range finds nothing', { $indexOfCP: ['hello', '', 2, 2] }, -1],
  ['the empty substring in the empty string', { $indexOfCP: ['', ''] }, 0],
  ['null string', { $indexOfCP: [null, 'a'] }, null],
]));

describe('$indexOfCP errors', () => errorRows([
  ['a non-string string', { $indexOfCP: [true, 'a'] }, 40093, '$indexOfCP requires a string as the first argument, found: bool'],
  ['a non-string substring', { $indexOfCP: ['a', 1] }, 40094, '$indexOfCP requires a string as the second argument, found: int'],
  ['a fractional end', { $indexOfCP: ['a', 'a', 0, 0.5] }, 40096, '$indexOfCPrequires an integral ending index, found a value of type: double, with value: 0.5'],
  ['a negative start', { $indexOfCP: ['a', 'a', Long.fromNumber(-3)] }, 40097, '$indexOfCP requires a nonnegative starting index, found: -3'],
]));
