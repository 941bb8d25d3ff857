/** `$mergeObjects` as an expression: later fields replace earlier ones in place; arrays merge their elements. */
import { describe } from 'vitest';
import { Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { a: { x: 1, y: 2 }, b: { y: Long.fromNumber(3), z: 4 }, arr: [{ p: 1 }, null, { q: 2 }], n: null, i: 7 };

describe('$mergeObjects', () => {
  valueRows(
    [
      ['a later value replaces in place', { $mergeObjects: ['$a', '$b'] }, { x: 1, y: Long.fromNumber(3), z: 4 }],
      ['null and missing are skipped', { $mergeObjects: ['$n', '$a', '$nope'] }, { x: 1, y: 2 }],
      ['no argument', { $mergeObjects: [] }, {}],
      ['a single object', { $mergeObjects: '$a' }, { x: 1, y: 2 }],
      ['an array argument merges its elements', { $mergeObjects: '$arr' }, { p: 1, q: 2 }],
      ['an array literal of field paths', { $mergeObjects: [['$a', '$b']] }, { x: 1, y: Long.fromNumber(3), z: 4 }],
      ['dotted and $-prefixed names are kept', { $mergeObjects: [{ $literal: { 'a.b': 1, $c: 2 } }] }, { 'a.b': 1, $c: 2 }],
    ],
    DOC,
  );
  errorRows(
    [
      ['an int', { $mergeObjects: ['$a', '$i'] }, 40400, '$mergeObjects requires object inputs, but input 7 is of type int'],
      ['an empty array', { $mergeObjects: [[], { a: 1 }] }, 40400, '$mergeObjects requires object inputs, but input [] is of type array'],
      ['an array element that is not an object', { $mergeObjects: [[1]] }, 40400, '$mergeObjects requires object inputs, but input 1 is of type int'],
    ],
    DOC,
  );
});
