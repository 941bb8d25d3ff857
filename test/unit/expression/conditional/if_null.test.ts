/** `$ifNull`: the first non-nullish argument; constant arguments are folded (evaluated) when parsed. */
import { describe } from 'vitest';
import { errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { a: 1, n: null };

describe('$ifNull', () => {
  valueRows(
    [
      ['the first non-null', { $ifNull: ['$n', '$nope', '$a'] }, 1],
      ['the replacement as it is, even null', { $ifNull: ['$n', null] }, null],
      ['the replacement missing', { $ifNull: ['$n', '$nope'] }, undefined],
      ['a field-path argument after a non-null one is not evaluated', { $ifNull: ['$a', { $divide: [1, { $subtract: ['$a', 1] }] }] }, 1],
    ],
    DOC,
  );
  errorRows([['one argument', { $ifNull: ['$a'] }, 1257300, '$ifNull needs at least two arguments, had: 1']], DOC);
  parseErrorRows([['an unreached constant argument still errors', { $ifNull: ['$a', { $divide: [1, 0] }, 'default'] }, 2, "can't $divide by zero"]]);
});
