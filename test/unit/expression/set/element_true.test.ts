/** `$allElementsTrue` and `$anyElementTrue`: aggregation truthiness of an array's elements. */
import { describe } from 'vitest';
import { Decimal128, Long } from '../../../../src/bson/library.js';
import { errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { t: [1, 'x', true], f: [0, null, false], n: null, i: 1 };

describe('$allElementsTrue', () => {
  valueRows(
    [
      ['all truthy', { $allElementsTrue: ['$t'] }, true],
      ['one falsy', { $allElementsTrue: [[1, 0]] }, false],
      ['the empty array', { $allElementsTrue: [[]] }, true],
      ['a zero Long and Decimal128 are falsy', { $allElementsTrue: [[Long.fromNumber(0)]] }, false],
      ['-0 decimal is falsy', { $allElementsTrue: [[Decimal128.fromString('-0.0')]] }, false],
      ['empty arrays and objects are truthy', { $allElementsTrue: [[[], {}]] }, true],
    ],
    DOC,
  );
  errorRows(
    [
      ['null', { $allElementsTrue: ['$n'] }, 17040, "$allElementsTrue's argument must be an array, but is null"],
      ['missing', { $allElementsTrue: '$nope' }, 17040, "$allElementsTrue's argument must be an array, but is missing"],
    ],
    DOC,
  );
  parseErrorRows([['two arguments', { $allElementsTrue: [[1], [2]] }, 16020, 'Expression $allElementsTrue takes exactly 1 arguments. 2 were passed in.']]);
});

describe('$anyElementTrue', () => {
  valueRows(
    [
      ['one truthy', { $anyElementTrue: [[0, 2]] }, true],
      ['all falsy', { $anyElementTrue: ['$f'] }, false],
      ['the empty array', { $anyElementTrue: [[]] }, false],
    ],
    DOC,
  );
  errorRows([['an int', { $anyElementTrue: ['$i'] }, 17041, "$anyElementTrue's argument must be an array, but is int"]], DOC);
  parseErrorRows([['no argument', { $anyElementTrue: [] }, 16020, 'Expression $anyElementTrue takes exactly 1 arguments. 0 were passed in.']]);
});
