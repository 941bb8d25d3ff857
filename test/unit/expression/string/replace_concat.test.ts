/**
 * `$replaceOne`, `$replaceAll` and `$concat` (mongod 8.2): literal find and replace, an empty
 * find at code point boundaries, type checks before null; and the 16MB ceiling of a string
 * value (16493), for what an operator computes and for a constant.
 */
import { describe } from 'vitest';
import { errorRows, valueRows } from '../helpers.js';

const MB16 = 16 * 1024 * 1024;

describe('$replaceOne and $replaceAll', () => valueRows([
  ['the first occurrence', { $replaceOne: { input: 'a.a.a', find: '.', replacement: '-' } }, 'a-a.a'],
  ['every occurrence', { $replaceAll: { input: 'a.a.a', find: '.', replacement: '-' } }, 'a-a-a'],
  ['not found', { $replaceAll: { input: 'abc', find: 'z', replacement: '-' } }, 'abc'],
  ['non-overlapping, left to right', { $replaceAll: { input: 'aaa', find: 'aa', replacement: 'b' } }, 'ba'],
  ['special characters are literal', { $replaceAll: { input: 'a.*b', find: '.*', replacement: { $literal: '$&' } } }, 'a$&b'],
  ['special characters are literal (one)', { $replaceOne: { input: 'a.*b', find: '.*', replacement: { $literal: "$'" } } }, "a$'b"],
  ['an empty replacement deletes', { $replaceAll: { input: 'hello world', find: 'o', replacement: '' } }, 'hell wrld'],
  ['an empty find: one insertion at the start', { $replaceOne: { input: 'abc', find: '', replacement: 'X' } }, 'Xabc'],
  ['an empty find: at every code point boundary', { $replaceAll: { input: 'a😀', find: '', replacement: 'X' } }, 'XaX😀X'],
  ['an empty find in the empty string', { $replaceAll: { input: '', find: '', replacement: 'X' } }, 'X'],
  ['null input', { $replaceOne: { input: null, find: 'a', replacement: 'b' } }, null],
  ['missing find', { $replaceAll: { input: 'a', find: '$nope', replacement: 'b' } }, null],
  ['null replacement', { $replaceAll: { input: 'a', find: 'a', replacement: null } }, null],
]));

describe('$replaceOne and $replaceAll errors', () => errorRows([
  ['not an object', { $replaceOne: 'a' }, 51751, '$replaceOne requires an object as an argument, found: string'],
  ['an unknown argument', { $replaceAll: { input: 'a', find: 'a', replacement: 'b', x: 1 } }, 51750, '$replaceAll found an unknown argument: x'],
  ['no input', { $replaceOne: { find: 'a', replacement: 'b' } }, 51749, "$replaceOne requires 'input' to be specified"],
  ['no find', { $replaceOne: { input: 'a', replacement: 'b' } }, 51748, "$replaceOne requires 'find' to be specified"],
  ['no replacement', { $replaceAll: { input: 'a', find: 'a' } }, 51747, "$replaceAll requires 'replacement' to be specified"],
  ['a non-string input', { $replaceOne: { input: 1, find: 'a', replacement: 'b' } }, 10503904, "$replaceOne requires that 'input' be a string, found: 1"],
  ['a non-string find, even with a null input', { $replaceAll: { input: null, find: 2, replacement: 'b' } }, 10503901, "$replaceAll requires that 'find' be a string, found: 2"],
  ['a non-string replacement', { $replaceAll: { input: 'a', find: 'a', replacement: [1] } }, 10503902, "$replaceAll requires that 'replacement' be a string, found: [1]"],
  ['input is checked first', { $replaceAll: { input: 1, find: 2, replacement: 3 } }, 10503904, "$replaceAll requires that 'input' be a string, found: 1"],
]));

describe('$concat', () => valueRows([
  ['strings joined', { $concat: ['a', 'b', 'c'] }, 'abc'],
  ['no argument is the empty string', { $concat: [] }, ''],
  ['null makes null', { $concat: ['a', null] }, null],
  ['missing makes null', { $concat: ['a', '$nope'] }, null],
  ['just under 16MB', { $strLenBytes: { $concat: ['a'.repeat(MB16 / 2), 'b'.repeat(MB16 / 2 - 1)] } }, MB16 - 1],
]));

describe('$concat errors and the 16MB ceiling', () => errorRows([
  ['a number', { $concat: ['a', 1] }, 16702, '$concat only supports strings, not int'],
  ['a computed string of 16MB', { $concat: ['a'.repeat(MB16 / 2), 'b'.repeat(MB16 / 2)] }, 16493, 'Tried to create string longer than 16MB'],
  ['16MB of 2-byte characters', { $concat: ['é'.repeat(MB16 / 4), 'é'.repeat(MB16 / 4)] }, 16493, 'Tried to create string longer than 16MB'],
  ['a 16MB constant, even in a branch not taken', { $cond: [true, 'x', 'a'.repeat(MB16)] }, 16493, 'Tried to create string longer than 16MB'],
  ['$replaceAll growing past 16MB', { $replaceAll: { input: 'a'.repeat(MB16 / 2), find: 'a', replacement: 'bb' } }, 16493, 'Tried to create string longer than 16MB'],
]));
