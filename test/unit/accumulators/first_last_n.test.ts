/** `$firstN` and `$lastN` in `$group` (accumulator_multi.cpp, AccumulatorFirstLastN). */
import { describe, it } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { expectExact } from '../aggregation/helpers.js';
import { groupErrorTable, groupTable, run } from './helpers.js';

const DOCS = [{ v: 1 }, { v: 2 }, {}, { v: null }, { v: 5 }];

describe('$firstN and $lastN', () => {
  groupTable([
    ['$firstN: the first n, missing as null', { $firstN: { n: 3, input: '$v' } }, DOCS, [1, 2, null]],
    ['$lastN: the last n', { $lastN: { n: 2, input: '$v' } }, DOCS, [null, 5]],
    ['n beyond the count: every value', { $firstN: { n: 10, input: '$v' } }, [{ v: 'a' }, { v: 'b' }], ['a', 'b']],
    ['n as a Long', { $lastN: { n: Long.fromNumber(1), input: '$v' } }, DOCS, [5]],
    ['n as an integral Double', { $firstN: { n: new Double(2), input: '$v' } }, DOCS, [1, 2]],
    ['n as an integral Decimal128', { $firstN: { n: Decimal128.fromString('1'), input: '$v' } }, DOCS, [1]],
    ['n against a scalar group key: an empty document', { $firstN: { n: { $ifNull: ['$k', 1] }, input: '$v' } }, DOCS, [1]],
  ]);
  it('n is evaluated against a document group key', () => {
    const docs = [{ g: 'a', v: 1 }, { g: 'b', v: 2 }, { g: 'a', v: 3 }, { g: 'b', v: 4 }, { g: 'b', v: 5 }];
    const n = { $cond: [{ $eq: ['$g', 'b'] }, 3, 1] };
    expectExact(run([{ $group: { _id: { g: '$g' }, r: { $firstN: { n, input: '$v' } } } }], docs), [
      { _id: { g: 'a' }, r: [1] },
      { _id: { g: 'b' }, r: [2, 4, 5] },
    ]);
  });
  groupErrorTable([
    ['not an object', { $firstN: 5 }, [{}], 5787801, 'specification must be an object; found $firstN: 5'],
    ['an unknown field', { $lastN: { n: 1, input: '$v', x: 1 } }, [{}], 5787901, "Unknown argument for 'n' operator: x"],
    ['n missing', { $firstN: { input: '$v' } }, [{}], 5787906, "Missing value for 'n'"],
    ['input missing', { $firstN: { n: 1 } }, [{}], 5787907, "Missing value for 'input'"],
    ['n a string', { $firstN: { n: 'a', input: '$v' } }, [{}], 7548606, "Value for 'n' must be a positive integer, but found \"a\""],
    ['n fractional', { $lastN: { n: 1.5, input: '$v' } }, [{}], 7548606, "Value for 'n' must be a positive integer, but found 1.5"],
    ['n zero', { $firstN: { n: 0, input: '$v' } }, [{}], 7548606, "Value for 'n' must be a positive integer, but found 0"],
    ['n negative', { $lastN: { n: -2, input: '$v' } }, [{}], 7548606, "Value for 'n' must be a positive integer, but found -2"],
  ]);
});
