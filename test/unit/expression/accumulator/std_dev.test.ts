/** `$stdDevPop` and `$stdDevSamp` as expressions: over one array argument, or the arguments. */
import { describe } from 'vitest';
import { Double } from '../../../../src/bson/library.js';
import { valueRowsWithDoc } from '../helpers.js';

describe('$stdDevPop and $stdDevSamp expressions', () => {
  valueRowsWithDoc([
    ['$stdDevPop of an array', { $stdDevPop: '$a' }, { a: [10, 20, 30] }, 8.16496580927726],
    ['$stdDevSamp of the arguments', { $stdDevSamp: [10, 20, 30] }, {}, new Double(10)],
    ['non-numbers ignored', { $stdDevSamp: '$a' }, { a: [10, 'x', null, 30, 20] }, new Double(10)],
    ['$stdDevSamp of one number is null', { $stdDevSamp: [5] }, {}, null],
    ['$stdDevPop of a missing field is null', { $stdDevPop: '$nope' }, {}, null],
    ['$stdDevPop of one number is 0', { $stdDevPop: 7 }, {}, new Double(0)],
  ]);
});
