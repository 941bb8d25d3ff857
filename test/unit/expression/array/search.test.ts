/** `$in` and `$indexOfArray`: BSON equality across numeric types, strings under the collation. */
import { describe, it } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { Collator } from '../../../../src/storage/values/collator.js';
import { expectExact } from '../../aggregation/helpers.js';
import { errorRows, evaluate, valueRows } from '../helpers.js';

const DOC = { arr: [1, 'a', 2, 'a', null], n: null, s: 'x' };

describe('$in', () => {
  valueRows(
    [
      ['found', { $in: [2, '$arr'] }, true],
      ['numbers of other types are equal', { $in: [Long.fromNumber(2), '$arr'] }, true],
      ['not found', { $in: [3, '$arr'] }, false],
      ['null is found as null', { $in: [null, '$arr'] }, true],
      ['an empty array', { $in: [1, []] }, false],
    ],
    DOC,
  );
  errorRows(
    [
      ['a null array', { $in: [1, '$n'] }, 40081, '$in requires an array as a second argument, found: null'],
      ['a missing array', { $in: [1, '$nope'] }, 40081, '$in requires an array as a second argument, found: missing'],
    ],
    DOC,
  );
  it('compares strings under the collation', () => {
    expectExact(evaluate({ $in: ['A', '$arr'] }, DOC, new Collator({ locale: 'en', strength: 2 })), true);
  });
});

describe('$indexOfArray', () => {
  valueRows(
    [
      ['the first match', { $indexOfArray: ['$arr', 'a'] }, 1],
      ['not found is -1', { $indexOfArray: ['$arr', 'z'] }, -1],
      ['a Decimal128 search matches an int', { $indexOfArray: ['$arr', Decimal128.fromString('2.0')] }, 2],
      ['from a start', { $indexOfArray: ['$arr', 'a', 2] }, 3],
      ['in [start, end)', { $indexOfArray: ['$arr', 'a', 2, 3] }, -1],
      ['an end past the array', { $indexOfArray: ['$arr', null, 0, 100] }, 4],
      ['a start past the array', { $indexOfArray: ['$arr', 'a', 100] }, -1],
      ['integral double and Int64 indexes', { $indexOfArray: ['$arr', 'a', new Double(2), Long.fromNumber(5)] }, 3],
      ['a null array is null', { $indexOfArray: ['$n', 1] }, null],
      ['a missing array is null, bad indexes unread', { $indexOfArray: ['$nope', 1, 'x'] }, null],
    ],
    DOC,
  );
  it('compares strings under the collation', () => {
    expectExact(evaluate({ $indexOfArray: ['$arr', 'A'] }, DOC, new Collator({ locale: 'en', strength: 2 })), 1);
  });
  errorRows(
    [
      ['a non-array', { $indexOfArray: ['$s', 1] }, 40090, '$indexOfArray requires an array as a first argument, found: string'],
      [
        'a fractional start',
        { $indexOfArray: ['$arr', 1, 1.5] },
        9711600,
        '$indexOfArrayrequires an integral starting index, found a value of type: double, with value: 1.5',
      ],
      [
        'a string end',
        { $indexOfArray: ['$arr', 1, 0, 'x'] },
        9711600,
        '$indexOfArrayrequires an integral ending index, found a value of type: string, with value: "x"',
      ],
      ['a negative start', { $indexOfArray: ['$arr', 1, -1] }, 9711601, '$indexOfArray requires a nonnegative starting index, found: -1'],
      ['one argument', { $indexOfArray: ['$arr'] }, 28667, 'Expression $indexOfArray takes at least 2 arguments, and at most 4, but 1 were passed in.'],
      ['five arguments', { $indexOfArray: ['$arr', 1, 0, 1, 2] }, 28667, 'Expression $indexOfArray takes at least 2 arguments, and at most 4, but 5 were passed in.'],
    ],
    DOC,
  );
});
