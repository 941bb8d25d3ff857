/** `$median` and `$percentile` as expressions (ExpressionFromAccumulatorQuantile). */
import { describe } from 'vitest';
import { Double } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, valueRowsWithDoc } from '../helpers.js';

describe('$median and $percentile expressions', () => {
  valueRowsWithDoc([
    ['$median of an array', { $median: { input: '$a', method: 'approximate' } }, { a: [30, 10, 20] }, new Double(20)],
    ['$median of a scalar', { $median: { input: 5, method: 'approximate' } }, {}, new Double(5)],
    ['$median without numbers', { $median: { input: '$a', method: 'approximate' } }, { a: ['x'] }, null],
    ['$percentile', { $percentile: { input: '$a', p: [0.5, 1], method: 'approximate' } }, { a: [5, 15, 25] }, [new Double(15), new Double(25)]],
    ['$percentile of a missing field', { $percentile: { input: '$a', p: [0.5], method: 'approximate' } }, {}, [null]],
    ['$percentile of a scalar: every p is the value', { $percentile: { input: 4, p: [0.1, 0.9], method: 'continuous' } }, {}, [new Double(4), new Double(4)]],
    ['$percentile continuous of an array', { $percentile: { input: [1, 2, 3, 4], p: [0.5], method: 'continuous' } }, {}, [new Double(2.5)]],
    ['$percentile of an empty array: nulls', { $percentile: { input: [], p: [0.5, 0.6], method: 'discrete' } }, {}, [null, null]],
  ]);
  errorRowsWithDoc([
    ['$percentile p not an array', { $percentile: { input: '$a', p: 0.5, method: 'approximate' } }, {}, 7750301, "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: 0.5"],
    ['$median method not a string', { $median: { input: '$a', method: 1 } }, {}, 14, "BSON field '$median.method' is the wrong type 'int', expected type 'string'"],
    ['$median unknown method', { $median: { input: '$a', method: 'exact' } }, {}, 2, "Currently only 'approximate', 'discrete', and 'continuous' can be used as percentile 'method'."],
    ['$percentile not an object', { $percentile: [0.5] }, {}, 7436200, 'specification must be an object; found $percentile: [ 0.5 ]'],
    ['$median not an object', { $median: 1 }, {}, 7436201, 'specification must be an object; found $median: 1'],
  ]);
});
