/** `$top`, `$bottom`, `$topN`, `$bottomN` in `$group` (accumulator_multi.cpp, AccumulatorTopBottomN). */
import { describe } from 'vitest';
import { groupErrorTable, groupTable } from './helpers.js';

const DOCS = [
  { name: 'a', score: 10 },
  { name: 'b', score: 30 },
  { name: 'c', score: 20 },
  { name: 'd', score: 30 },
  { name: 'e' },
];

describe('$top, $bottom, $topN, $bottomN', () => {
  groupTable([
    ['$top: the first output by sortBy', { $top: { output: '$name', sortBy: { score: -1 } } }, DOCS, 'b'],
    ['$bottom: the last output by sortBy', { $bottom: { output: '$name', sortBy: { score: -1 } } }, DOCS, 'e'],
    ['$topN: ties keep the document seen first', { $topN: { n: 2, output: '$name', sortBy: { score: -1 } } }, DOCS, ['b', 'd']],
    ['$topN ascending: missing sorts first', { $topN: { n: 2, output: '$name', sortBy: { score: 1 } } }, DOCS, ['e', 'a']],
    ['$bottomN: the last n, in sort order', { $bottomN: { n: 2, output: '$name', sortBy: { score: 1 } } }, DOCS, ['b', 'd']],
    ['$bottomN with n beyond the count', { $bottomN: { n: 9, output: '$score', sortBy: { score: 1 } } }, DOCS, [null, 10, 20, 30, 30]],
    ['a missing output is null', { $top: { output: '$score', sortBy: { name: -1 } } }, DOCS, null],
    ['an output expression', { $topN: { n: 1, output: ['$name', '$score'], sortBy: { score: 1, name: -1 } } }, DOCS, [['e', null]]],
    ['a compound sortBy', { $bottom: { output: '$name', sortBy: { score: 1, name: 1 } } }, DOCS, 'd'],
  ]);
  groupErrorTable([
    ['not an object', { $top: 1 }, [{}], 5788001, 'specification must be an object; found $top: 1'],
    ['sortBy missing', { $top: { output: '$name' } }, [{}], 5788005, "Missing value for 'sortBy'"],
    ['output missing', { $bottomN: { n: 1, sortBy: { a: 1 } } }, [{}], 5788004, "Missing value for 'output'"],
    ['n missing', { $topN: { output: '$a', sortBy: { a: 1 } } }, [{}], 5788003, "Missing value for 'n'"],
    ['n given to $top', { $top: { n: 1, output: '$a', sortBy: { a: 1 } } }, [{}], 5788002, "Unknown argument to $top 'n'"],
    ['an unknown field', { $bottomN: { n: 1, output: '$a', sortBy: { a: 1 }, x: 1 } }, [{}], 5788002, "Unknown argument to $bottomN 'x'"],
    ['a bad sort direction', { $top: { output: '$a', sortBy: { a: 2 } } }, [{}], 15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)'],
    ['n zero', { $topN: { n: 0, output: '$a', sortBy: { a: 1 } } }, [{}], 7548606, "Value for 'n' must be a positive integer, but found 0"],
  ]);
});
