/** `$maxN` and `$minN` in `$group` (accumulator_multi.cpp, AccumulatorMinMaxN). */
import { describe } from 'vitest';
import { Double, Long } from '../../../src/bson/library.js';
import { groupErrorTable, groupTable } from './helpers.js';

const DOCS = [{ v: 3 }, { v: null }, { v: 10 }, {}, { v: 1 }, { v: 'a' }, { v: 7 }];

describe('$maxN and $minN', () => {
  groupTable([
    ['$maxN: the greatest, descending (strings above numbers), null and missing ignored', { $maxN: { n: 3, input: '$v' } }, DOCS, ['a', 10, 7]],
    ['$minN: the least, ascending', { $minN: { n: 3, input: '$v' } }, DOCS, [1, 3, 7]],
    ['n beyond the count', { $minN: { n: 9, input: '$v' } }, [{ v: 2 }, { v: 1 }], [1, 2]],
    ['numbers of mixed types compare by value and keep their types', { $maxN: { n: 2, input: '$v' } }, [{ v: Long.fromNumber(5) }, { v: new Double(6) }, { v: 4 }], [new Double(6), Long.fromNumber(5)]],
    ['only nulls: an empty array', { $minN: { n: 2, input: '$v' } }, [{ v: null }, {}], []],
  ]);
  groupErrorTable([
    ['not an object', { $maxN: [1] }, [{}], 5787900, 'specification must be an object; found $maxN: [ 1 ]'],
    ['n missing', { $minN: { input: '$v' } }, [{}], 5787906, "Missing value for 'n'"],
    ['n fractional', { $maxN: { n: 2.5, input: '$v' } }, [{ v: 1 }], 7548606, "Value for 'n' must be a positive integer, but found 2.5"],
    ['n null', { $minN: { n: null, input: '$v' } }, [{ v: 1 }], 7548606, "Value for 'n' must be a positive integer, but found null"],
  ]);
});
