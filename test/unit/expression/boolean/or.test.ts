/** `$or`: truthiness, and mongod's folding of constant arguments (a truthy constant wins unevaluated). */
import { describe } from 'vitest';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { x: 0, f: false, t: 'yes' };

describe('$or', () => {
  valueRows(
    [
      ['no argument', { $or: [] }, false],
      ['a truthy field', { $or: ['$f', '$t'] }, true],
      ['all falsy', { $or: ['$f', '$x', null] }, false],
      ['a truthy constant: the erroring argument is not evaluated', { $or: [{ $divide: [1, '$x'] }, true] }, true],
      ['falsy constants are dropped', { $or: [0, '$t'] }, true],
    ],
    DOC,
  );
  errorRows([['a non-constant argument is evaluated in order', { $or: [{ $divide: [1, '$x'] }, '$t'] }, 2, "can't $divide by zero"]], DOC);
});
