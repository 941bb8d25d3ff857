/** `$meta`: the argument checked when parsed; metadata no stage produced reads as missing (textScore: test/integration/text_search.test.ts). */
import { describe } from 'vitest';
import { parseErrorRows, valueRows } from '../helpers.js';

describe('$meta', () => {
  valueRows([
    ['searchScore without a search stage', { $meta: 'searchScore' }, undefined],
    ['randVal without $sample', { $meta: 'randVal' }, undefined],
    ['indexKey without an index scan', { $meta: 'indexKey' }, undefined],
  ]);
  parseErrorRows([
    ['a non-string', { $meta: 1 }, 17307, '$meta only supports string arguments'],
    ['an expression', { $meta: { $concat: ['text', 'Score'] } }, 17307, '$meta only supports string arguments'],
    ['an unknown name', { $meta: 'bogus' }, 17308, 'Unsupported argument to $meta: bogus'],
    ['a field path is a name like any other', { $meta: '$a' }, 17308, 'Unsupported argument to $meta: $a'],
  ]);
});
