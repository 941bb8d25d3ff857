/** `$firstN`, `$lastN`, `$maxN`, `$minN` as expressions (ExpressionFromAccumulatorN). */
import { describe } from 'vitest';
import { Long } from '../../../../src/bson/library.js';
import { errorRowsWithDoc, valueRowsWithDoc } from '../helpers.js';

const DOC = { a: [10, 30, null, 20, 40], n: 2, s: 'x' };

describe('$firstN, $lastN, $maxN, $minN expressions', () => {
  valueRowsWithDoc([
    ['$firstN', { $firstN: { n: 2, input: '$a' } }, DOC, [10, 30]],
    ['$lastN keeps null elements', { $lastN: { n: 3, input: '$a' } }, DOC, [null, 20, 40]],
    ['$maxN ignores null', { $maxN: { n: 2, input: '$a' } }, DOC, [40, 30]],
    ['$minN', { $minN: { n: 3, input: '$a' } }, DOC, [10, 20, 30]],
    ['n from a field', { $firstN: { n: '$n', input: [1, 2, 3] } }, DOC, [1, 2]],
    ['n as a Long beyond the length', { $lastN: { n: Long.fromNumber(9), input: [1, 2] } }, DOC, [1, 2]],
    ['an empty array', { $maxN: { n: 1, input: [] } }, DOC, []],
  ]);
  errorRowsWithDoc([
    ['input not an array', { $firstN: { n: 1, input: '$s' } }, DOC, 5788200, 'Input must be an array'],
    ['input missing from the document', { $minN: { n: 1, input: '$nope' } }, DOC, 5788200, 'Input must be an array'],
    ['n zero', { $lastN: { n: 0, input: '$a' } }, DOC, 5787908, "'n' must be greater than 0, found 0"],
    ['n a string', { $maxN: { n: '$s', input: '$a' } }, DOC, 5787902, "Value for 'n' must be of integral type, but found \"x\""],
    ['not an object', { $firstN: [1] }, DOC, 5787801, 'specification must be an object; found $firstN: [ 1 ]'],
    ['an unknown field', { $minN: { n: 1, input: '$a', z: 1 } }, DOC, 5787901, "Unknown argument for 'n' operator: z"],
  ]);
});
