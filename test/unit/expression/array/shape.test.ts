/** `$isArray`, `$concatArrays`, `$reverseArray`, `$size`: one-array operators. */
import { describe } from 'vitest';
import { Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { a: [1, 2], b: [3], e: [], n: null, s: 'x', o: { k: 1 }, nested: [[1, 2], [3]] };

describe('$isArray', () => {
  valueRows(
    [
      ['an array field', { $isArray: '$a' }, true],
      ['an array in the argument list', { $isArray: [[1, 2]] }, true],
      ['an empty array', { $isArray: '$e' }, true],
      ['a string', { $isArray: '$s' }, false],
      ['null', { $isArray: '$n' }, false],
      ['missing', { $isArray: '$nope' }, false],
      ['a document', { $isArray: '$o' }, false],
    ],
    DOC,
  );
  errorRows([['two arguments', { $isArray: [1, 2] }, 16020, 'Expression $isArray takes exactly 1 arguments. 2 were passed in.']], DOC);
});

describe('$concatArrays', () => {
  valueRows(
    [
      ['two arrays', { $concatArrays: ['$a', '$b'] }, [1, 2, 3]],
      ['nested arrays are not flattened', { $concatArrays: ['$nested', [[4]]] }, [[1, 2], [3], [4]]],
      ['no argument', { $concatArrays: [] }, []],
      ['one array', { $concatArrays: '$a' }, [1, 2]],
      ['empty arrays', { $concatArrays: ['$e', '$e'] }, []],
      ['a null argument makes null', { $concatArrays: ['$a', '$n'] }, null],
      ['a missing argument makes null', { $concatArrays: ['$nope', '$a'] }, null],
      ['null before a non-array is null', { $concatArrays: ['$n', '$s'] }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a string', { $concatArrays: ['$a', '$s'] }, 28664, '$concatArrays only supports arrays, not string'],
      ['a document', { $concatArrays: ['$o'] }, 28664, '$concatArrays only supports arrays, not object'],
    ],
    DOC,
  );
});

describe('$reverseArray', () => {
  valueRows(
    [
      ['reversed', { $reverseArray: { $literal: [1, 'b', [3]] } }, [[3], 'b', 1]],
      ['empty', { $reverseArray: '$e' }, []],
      ['null', { $reverseArray: '$n' }, null],
      ['missing', { $reverseArray: '$nope' }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a string', { $reverseArray: '$s' }, 34435, 'The argument to $reverseArray must be an array, but was of type: string'],
      ['an Int64', { $reverseArray: Long.fromNumber(1) }, 34435, 'The argument to $reverseArray must be an array, but was of type: long'],
    ],
    DOC,
  );
});

describe('$size', () => {
  valueRows(
    [
      ['an array', { $size: '$a' }, 2],
      ['empty', { $size: '$e' }, 0],
    ],
    DOC,
  );
  errorRows(
    [
      ['null', { $size: '$n' }, 17124, 'The argument to $size must be an array, but was of type: null'],
      ['missing', { $size: '$nope' }, 17124, 'The argument to $size must be an array, but was of type: missing'],
    ],
    DOC,
  );
});
