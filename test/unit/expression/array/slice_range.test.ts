/** `$slice` and `$range` (ExpressionSlice, ExpressionRange). */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, valueRows } from '../helpers.js';

const DOC = { arr: [1, 2, 3, 4, 5], n: null, s: 'x' };

describe('$slice', () => {
  valueRows(
    [
      ['the first n', { $slice: ['$arr', 2] }, [1, 2]],
      ['the last n', { $slice: ['$arr', -2] }, [4, 5]],
      ['n past the length', { $slice: ['$arr', 10] }, [1, 2, 3, 4, 5]],
      ['-n past the length', { $slice: ['$arr', -10] }, [1, 2, 3, 4, 5]],
      ['zero', { $slice: ['$arr', 0] }, []],
      ['from a position', { $slice: ['$arr', 1, 2] }, [2, 3]],
      ['from a negative position', { $slice: ['$arr', -2, 5] }, [4, 5]],
      ['a negative position past the start', { $slice: ['$arr', -10, 2] }, [1, 2]],
      ['a position past the end', { $slice: ['$arr', 10, 2] }, []],
      ['integral Double, Int64 and Decimal128 numbers', { $slice: ['$arr', new Double(1), Long.fromNumber(1)] }, [2]],
      ['an integral Decimal128 count', { $slice: ['$arr', Decimal128.fromString('-1')] }, [5]],
      ['a null array', { $slice: ['$n', 1] }, null],
      ['a missing count', { $slice: ['$arr', '$nope'] }, null],
      ['a null third argument', { $slice: ['$arr', 0, null] }, null],
    ],
    DOC,
  );
  errorRows(
    [
      ['a non-array', { $slice: ['$s', 1] }, 28724, 'First argument to $slice must be an array, but is of type: string'],
      ['a string count', { $slice: ['$arr', 'a'] }, 28725, 'Second argument to $slice must be a numeric value, but is of type: string'],
      ['a fractional count', { $slice: ['$arr', 1.5] }, 28726, "Second argument to $slice can't be represented as a 32-bit integer: 1.5"],
      ['a string third argument', { $slice: ['$arr', 0, 'a'] }, 28727, 'Third argument to $slice must be numeric, but is of type: string'],
      ['a fractional third argument', { $slice: ['$arr', 0, 2.5] }, 28728, "Third argument to $slice can't be represented as a 32-bit integer: 2.5"],
      ['a zero third argument', { $slice: ['$arr', 0, 0] }, 28729, 'Third argument to $slice must be positive: 0'],
      ['a negative third argument', { $slice: ['$arr', 0, -1] }, 28729, 'Third argument to $slice must be positive: -1'],
      ['one argument', { $slice: ['$arr'] }, 28667, 'Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in.'],
    ],
    DOC,
  );
});

describe('$range', () => {
  valueRows(
    [
      ['up by one', { $range: [0, 4] }, [0, 1, 2, 3]],
      ['up by a step', { $range: [0, 10, 3] }, [0, 3, 6, 9]],
      ['down by a negative step', { $range: [5, 0, -2] }, [5, 3, 1]],
      ['empty when the step goes away from the end', { $range: [0, 5, -1] }, []],
      ['empty when start equals end', { $range: [3, 3] }, []],
      ['integral Double, Int64, Decimal128 bounds give Int32s', { $range: [new Double(1), Long.fromNumber(3), Decimal128.fromString('1')] }, [1, 2]],
      ['near the Int32 maximum', { $range: [2147483645, 2147483647] }, [2147483645, 2147483646]],
      ['near the Int32 minimum', { $range: [-2147483647, -2147483648, -1] }, [-2147483647]],
    ],
    DOC,
  );
  errorRows(
    [
      ['a null start', { $range: ['$n', 5] }, 34443, '$range requires a numeric starting value, found value of type: null'],
      ['a fractional start', { $range: [1.5, 5] }, 34444, '$range requires a starting value that can be represented as a 32-bit integer, found value: 1.5'],
      ['a start past Int32', { $range: [Long.fromNumber(2147483648), 5] }, 34444, '$range requires a starting value that can be represented as a 32-bit integer, found value: 2147483648'],
      ['a string end', { $range: [0, '$s'] }, 34445, '$range requires a numeric ending value, found value of type: string'],
      ['a NaN end', { $range: [0, NaN] }, 34446, '$range requires an ending value that can be represented as a 32-bit integer, found value: nan'],
      ['a missing step', { $range: [0, 5, '$nope'] }, 34447, '$range requires a numeric step value, found value of type:missing'],
      ['a fractional step', { $range: [0, 5, 0.5] }, 34448, '$range requires a step value that can be represented as a 32-bit integer, found value: 0.5'],
      ['a zero step', { $range: [0, 5, 0] }, 34449, '$range requires a non-zero step value'],
      ['one argument', { $range: [0] }, 28667, 'Expression $range takes at least 2 arguments, and at most 3, but 1 were passed in.'],
      [
        'more than 100 MB of values',
        { $range: [0, 2147483647] },
        146,
        '$range would use too much memory (34359738392 bytes) and cannot spill to disk. Memory limit: 104857600 bytes',
      ],
    ],
    DOC,
  );
});
