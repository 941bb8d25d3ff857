/** `$zip` and `$sortArray` (ExpressionZip, ExpressionSortArray). */
import { describe } from 'vitest';
import { Decimal128, Double, Long, MaxKey, MinKey } from '../../../../src/bson/library.js';
import { Collator } from '../../../../src/storage/values/collator.js';
import { errorRows, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { a: [1, 2, 3], b: ['x', 'y'], n: null, s: 'str' };

describe('$zip', () => {
  valueRows(
    [
      ['as long as the shortest', { $zip: { inputs: ['$a', '$b'] } }, [[1, 'x'], [2, 'y']]],
      ['the longest, padded with null', { $zip: { inputs: ['$a', '$b'], useLongestLength: true } }, [[1, 'x'], [2, 'y'], [3, null]]],
      ['the longest, padded with defaults', { $zip: { inputs: ['$a', '$b'], useLongestLength: true, defaults: [0, 'z'] } }, [[1, 'x'], [2, 'y'], [3, 'z']]],
      ['one input', { $zip: { inputs: ['$b'] } }, [['x'], ['y']]],
      ['an empty input makes an empty result', { $zip: { inputs: ['$a', []] } }, []],
      ['useLongestLength false', { $zip: { inputs: ['$a', '$b'], useLongestLength: false } }, [[1, 'x'], [2, 'y']]],
      ['a null input', { $zip: { inputs: ['$a', '$n'] } }, null],
      ['a missing input before a non-array', { $zip: { inputs: ['$nope', '$s'] } }, null],
    ],
    DOC,
  );
  errorRows([['a non-array input', { $zip: { inputs: ['$a', '$s'] } }, 34468, '$zip found a non-array expression in input: "str"']], DOC);
  parseErrorRows([
    ['not an object', { $zip: [[1]] }, 34460, '$zip only supports an object as an argument, found array'],
    ['inputs not an array', { $zip: { inputs: '$a' } }, 34461, 'inputs must be an array of expressions, found string'],
    ['defaults not an array', { $zip: { inputs: [[1]], useLongestLength: true, defaults: 1 } }, 34462, 'defaults must be an array of expressions, found int'],
    ['useLongestLength not a bool', { $zip: { inputs: [[1]], useLongestLength: 1 } }, 34463, 'useLongestLength must be a bool, found int'],
    ['an unknown field', { $zip: { inputs: [[1]], x: 1 } }, 34464, '$zip found an unknown argument: x'],
    ['no input', { $zip: { inputs: [] } }, 34465, '$zip requires at least one input array'],
    ['defaults without useLongestLength', { $zip: { inputs: [[1]], defaults: [1] } }, 34466, 'cannot specify defaults unless useLongestLength is true'],
    ['defaults of another length', { $zip: { inputs: [[1], [2]], useLongestLength: true, defaults: [1] } }, 34467, 'defaults and inputs must have the same length'],
  ]);
});

describe('$sortArray', () => {
  valueRows(
    [
      ['numbers ascending across types', { $sortArray: { input: { $literal: [3, new Double(1.5), Long.fromNumber(2), Decimal128.fromString('0.5')] }, sortBy: 1 } }, [Decimal128.fromString('0.5'), new Double(1.5), Long.fromNumber(2), 3]],
      ['descending', { $sortArray: { input: '$a', sortBy: -1 } }, [3, 2, 1]],
      ['sortBy as any numeric 1', { $sortArray: { input: '$a', sortBy: Decimal128.fromString('-1') } }, [3, 2, 1]],
      ['BSON type order', { $sortArray: { input: { $literal: [{ x: 1 }, 'a', 1, null, [0], true, new MaxKey(), new MinKey()] }, sortBy: 1 } }, [new MinKey(), null, 1, 'a', { x: 1 }, [0], true, new MaxKey()]],
      ['by a field', { $sortArray: { input: { $literal: [{ v: 2 }, { v: 1 }, { v: 3 }] }, sortBy: { v: 1 } } }, [{ v: 1 }, { v: 2 }, { v: 3 }]],
      [
        'by two fields',
        { $sortArray: { input: { $literal: [{ a: 1, b: 1 }, { a: 2, b: 0 }, { a: 1, b: 2 }] }, sortBy: { a: 1, b: -1 } } },
        [{ a: 1, b: 2 }, { a: 1, b: 1 }, { a: 2, b: 0 }],
      ],
      ['by a dotted path', { $sortArray: { input: { $literal: [{ p: { q: 2 } }, { p: { q: 1 } }] }, sortBy: { 'p.q': 1 } } }, [{ p: { q: 1 } }, { p: { q: 2 } }]],
      ['a missing field sorts with null, in order', { $sortArray: { input: { $literal: [{ a: 2 }, { a: null }, { b: 1 }, { a: 1 }] }, sortBy: { a: 1 } } }, [{ a: null }, { b: 1 }, { a: 1 }, { a: 2 }]],
      ['an array field compares whole', { $sortArray: { input: { $literal: [{ a: [3, 1] }, { a: [2] }] }, sortBy: { a: 1 } } }, [{ a: [2] }, { a: [3, 1] }]],
      ['scalars with a sort document keep their order', { $sortArray: { input: { $literal: [1, 'a', null] }, sortBy: { x: 1 } } }, [1, 'a', null]],
      ['a one-element array literal', { $sortArray: { input: [[5]], sortBy: 1 } }, [[5]]],
      ['a null input', { $sortArray: { input: '$n', sortBy: 1 } }, null],
      ['a missing input', { $sortArray: { input: '$nope', sortBy: { a: 1 } } }, null],
    ],
    DOC,
  );
  describe('under a case-insensitive collation', () => {
    valueRows([['strings compare by the collation', { $sortArray: { input: { $literal: ['b', 'A', 'a', 'B'] }, sortBy: 1 } }, ['A', 'a', 'b', 'B']]], {}, new Collator({ locale: 'en', strength: 2 }));
  });
  valueRows([['without a collation, by bytes', { $sortArray: { input: { $literal: ['b', 'A', 'a', 'B'] }, sortBy: 1 } }, ['A', 'B', 'a', 'b']]]);
  errorRows([['a non-array input', { $sortArray: { input: '$s', sortBy: 1 } }, 2942504, 'The input argument to $sortArray must be an array, but was of type: string']], DOC);
  parseErrorRows([
    ['not an object', { $sortArray: [[1], 1] }, 2942500, '$sortArray requires an object as an argument, found: array'],
    ['an unknown field', { $sortArray: { input: [], sortBy: 1, x: 1 } }, 2942501, '$sortArray found an unknown argument: x'],
    ['no input', { $sortArray: { sortBy: 1 } }, 2942502, "$sortArray requires 'input' to be specified"],
    ['no sortBy', { $sortArray: { input: [] } }, 2942503, "$sortArray requires 'sortBy' to be specified"],
    ['a sortBy number not 1 or -1', { $sortArray: { input: [], sortBy: 2 } }, 2942506, 'The $sort element value must be either 1 or -1'],
    ['a fractional sortBy', { $sortArray: { input: [], sortBy: 1.5 } }, 2942506, 'The $sort element value must be either 1 or -1'],
    ['a string sortBy', { $sortArray: { input: [], sortBy: 'a' } }, 2942507, '$sortArray requires sortBy to be either an object or a number, found: string'],
    ['an empty sort document', { $sortArray: { input: [], sortBy: {} } }, 2942505, '$sortArray sort pattern must not be empty'],
    ['a sort document value not 1 or -1', { $sortArray: { input: [], sortBy: { a: 0 } } }, 2942505, '$sortArray sort pattern values must be either 1 or -1'],
  ]);
});
