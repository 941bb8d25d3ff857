/** `$firstN` and `$lastN` in `$group` (accumulator_multi.cpp, AccumulatorFirstLastN). */
import { describe } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { groupErrorTable, groupTable } from './helpers.js';

const DOCS = [{ v: 1 }, { v: 2 }, {}, { v: null }, { v: 5 }];

describe('$firstN and $lastN', () => {
  groupTable([
    ['$firstN: the first n, missing as null', { $firstN: { n: 3, input: '$v' } }, DOCS, [1, 2, null]],
    ['$lastN: the last n', { $lastN: { n: 2, input: '$v' } }, DOCS, [null, 5]],
    ['n beyond the count: every value', { $firstN: { n: 10, input: '$v' } }, [{ v: 'a' }, { v: 'b' }], ['a', 'b']],
    ['n as a Long', { $lastN: { n: Long.fromNumber(1), input: '$v' } }, DOCS, [5]],
    ['n as an integral Double', { $firstN: { n: new Double(2), input: '$v' } }, DOCS, [1, 2]],
    ['n as an integral Decimal128', { $firstN: { n: Decimal128.fromString('1'), input: '$v' } }, DOCS, [1]],
    ['n from the group key', { $firstN: { n: { $cond: [{ $eq: ['$_id', null] }, 1, 2] }, input: '$v' } }, DOCS, [1]],
  ]);
  groupErrorTable([
    ['not an object', { $firstN: 5 }, [{}], 5787801, 'specification must be an object; found $firstN: 5'],
    ['an unknown field', { $lastN: { n: 1, input: '$v', x: 1 } }, [{}], 5787901, "Unknown argument for 'n' operator: x"],
    ['n missing', { $firstN: { input: '$v' } }, [{}], 5787906, "Missing value for 'n'"],
    ['input missing', { $firstN: { n: 1 } }, [{}], 5787907, "Missing value for 'input'"],
    ['n a string', { $firstN: { n: 'a', input: '$v' } }, [{}], 5787902, "Value for 'n' must be of integral type, but found \"a\""],
    ['n fractional', { $lastN: { n: 1.5, input: '$v' } }, [{}], 5787903, "Value for 'n' must be of integral type, but found 1.5"],
    ['n zero', { $firstN: { n: 0, input: '$v' } }, [{}], 5787908, "'n' must be greater than 0, found 0"],
    ['n negative', { $lastN: { n: -2, input: '$v' } }, [{}], 5787908, "'n' must be greater than 0, found -2"],
  ]);
});
