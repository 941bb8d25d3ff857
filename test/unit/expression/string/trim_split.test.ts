/**
 * `$trim`, `$ltrim`, `$rtrim` and `$split` (mongod 8.2): code points trimmed (mongod's default
 * white space, or `chars`), the named-argument errors; the split of a string at a separator.
 */
import { describe } from 'vitest';
import { errorRows, valueRows } from '../helpers.js';

const ALL_DEFAULT_WHITESPACE = '\0\t\n\x0b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a';

describe('$trim, $ltrim, $rtrim', () => valueRows([
  ['both ends', { $trim: { input: '  hi  ' } }, 'hi'],
  ['the start', { $ltrim: { input: '  hi  ' } }, 'hi  '],
  ['the end', { $rtrim: { input: '  hi  ' } }, '  hi'],
  ['interior white space is kept', { $trim: { input: ' a  b ' } }, 'a  b'],
  ['all 20 default code points', { $trim: { input: `${ALL_DEFAULT_WHITESPACE}x${ALL_DEFAULT_WHITESPACE}` } }, 'x'],
  ['other Unicode spaces are not default', { $trim: { input: '\u3000x\u202f' } }, '\u3000x\u202f'],
  ['a zero-width space is not default', { $trim: { input: '\u200bx' } }, '\u200bx'],
  ['chars: any of its code points', { $trim: { input: 'xxhixy', chars: 'xy' } }, 'hi'],
  ['chars: code points, not bytes', { $ltrim: { input: 'ééa', chars: 'é' } }, 'a'],
  ['chars: an emoji', { $rtrim: { input: 'a😀😀', chars: '😀' } }, 'a'],
  ['chars: a combining sequence trims its code points separately', { $rtrim: { input: 'ae\u0301', chars: '\u0301' } }, 'ae'],
  ['chars: the empty string trims nothing', { $trim: { input: ' a ', chars: '' } }, ' a '],
  ['everything trimmed', { $trim: { input: 'aaa', chars: 'a' } }, ''],
  ['null input', { $trim: { input: null } }, null],
  ['missing input', { $ltrim: { input: '$nope' } }, null],
  ['null chars', { $trim: { input: 'a', chars: null } }, null],
  ['null input wins over bad chars', { $trim: { input: null, chars: 1 } }, null],
]));

describe('$trim errors', () => errorRows([
  ['not an object', { $trim: 'a' }, 50696, '$trim only supports an object as an argument, found: string'],
  ['an array', { $ltrim: ['a'] }, 50696, '$ltrim only supports an object as an argument, found: array'],
  ['an unknown argument', { $rtrim: { input: 'a', char: 'a' } }, 50694, '$rtrim found an unknown argument: char'],
  ['no input', { $trim: { chars: 'a' } }, 50695, "$trim requires an 'input' field"],
  ['a non-string input', { $trim: { input: 5 } }, 50699, '$trim requires its input to be a string, got 5 (of type int) instead.'],
  ['an array input', { $ltrim: { input: ['a'] } }, 50699, '$ltrim requires its input to be a string, got ["a"] (of type array) instead.'],
  ['non-string chars', { $trim: { input: 'a', chars: 1.5 } }, 50700, "$trim requires 'chars' to be a string, got 1.5 (of type double) instead."],
]));

describe('$split', () => valueRows([
  ['at each separator', { $split: ['a-b-c', '-'] }, ['a', 'b', 'c']],
  ['no separator', { $split: ['abc', '-'] }, ['abc']],
  ['separators at the ends and together', { $split: ['-a--b-', '-'] }, ['', 'a', '', 'b', '']],
  ['the whole string', { $split: ['abc', 'abc'] }, ['', '']],
  ['the empty string', { $split: ['', '-'] }, ['']],
  ['a multi-byte separator', { $split: ['a😀b😀c', '😀'] }, ['a', 'b', 'c']],
  ['a multi-character separator', { $split: ['a, b, c', ', '] }, ['a', 'b', 'c']],
  ['null string', { $split: [null, '-'] }, null],
  ['missing separator', { $split: ['a', '$nope'] }, null],
  ['null wins over a type error', { $split: [1, null] }, null],
]));

describe('$split errors', () => errorRows([
  ['a non-string string', { $split: [1, '-'] }, 40085, '$split requires an expression that evaluates to a string as a first argument, found: int'],
  ['a non-string separator', { $split: ['a', 1] }, 10503900, '$split requires an expression that evaluates to a string as a second argument, found: int'],
  ['an empty separator', { $split: ['a', ''] }, 40087, '$split requires a non-empty separator'],
  ['the string is checked before the separator', { $split: [1, ''] }, 40085, '$split requires an expression that evaluates to a string as a first argument, found: int'],
  ['one argument', { $split: ['a'] }, 16020, 'Expression $split takes exactly 2 arguments. 1 were passed in.'],
]));
