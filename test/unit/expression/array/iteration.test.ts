/** `$filter`, `$map`, `$reduce`: variables bound per element through child scopes. */
import { describe, expect, it } from 'vitest';
import { Double, Long } from '../../../../src/bson/library.js';
import { errorRows, evaluate, parseErrorRows, valueRows } from '../helpers.js';

const DOC = { arr: [1, 2, 3, 4], docs: [{ v: 1 }, { v: 5 }], n: null, s: 'x', e: [] };

describe('$filter', () => {
  valueRows(
    [
      ['with $$this', { $filter: { input: '$arr', cond: { $gt: ['$$this', 2] } } }, [3, 4]],
      ['with as', { $filter: { input: '$docs', as: 'd', cond: { $gte: ['$$d.v', 5] } } }, [{ v: 5 }]],
      ['truthiness of the condition', { $filter: { input: [0, 1, null, 'a', false], cond: '$$this' } }, [1, 'a']],
      ['with a limit', { $filter: { input: '$arr', cond: true, limit: 2 } }, [1, 2]],
      ['an integral Double limit', { $filter: { input: '$arr', cond: true, limit: new Double(1) } }, [1]],
      ['a limit past the matches', { $filter: { input: '$arr', cond: { $lt: ['$$this', 3] }, limit: Long.fromNumber(10) } }, [1, 2]],
      ['a null limit is no limit', { $filter: { input: '$arr', cond: true, limit: null } }, [1, 2, 3, 4]],
      ['a bad limit is unread for an empty input', { $filter: { input: '$e', cond: true, limit: 0 } }, []],
      ['the outer document is visible', { $filter: { input: '$arr', cond: { $eq: ['$$this', { $size: '$docs' }] } } }, [2]],
      ['a null input', { $filter: { input: '$n', cond: true } }, null],
      ['a missing input', { $filter: { input: '$nope', cond: true } }, null],
      [
        'nested, each with its own variable',
        { $filter: { input: [[1, 2], [3]], as: 'a', cond: { $gt: [{ $size: { $filter: { input: '$$a', cond: { $gt: ['$$this', 1] } } } }, 0] } } },
        [[1, 2], [3]],
      ],
    ],
    DOC,
  );
  errorRows(
    [
      ['a non-array input', { $filter: { input: '$s', cond: true } }, 28651, 'input to $filter must be an array not string'],
      ['a fractional limit', { $filter: { input: '$arr', cond: true, limit: 1.5 } }, 327391, '$filter: limit must be represented as a 32-bit integral value: 1.5'],
      ['a string limit', { $filter: { input: '$arr', cond: true, limit: 'a' } }, 327391, '$filter: limit must be represented as a 32-bit integral value: "a"'],
      ['a zero limit', { $filter: { input: '$arr', cond: true, limit: 0 } }, 327392, '$filter: limit must be greater than 0: 0'],
      ['a negative limit', { $filter: { input: '$arr', cond: true, limit: Long.fromNumber(-1) } }, 327392, '$filter: limit must be greater than 0: -1'],
    ],
    DOC,
  );
  parseErrorRows([
    ['not an object', { $filter: [1] }, 28646, '$filter only supports an object as its argument'],
    ['an unknown field', { $filter: { input: [], cond: true, x: 1 } }, 28647, 'Unrecognized parameter to $filter: x'],
    ['no input', { $filter: { cond: true } }, 28648, "Missing 'input' parameter to $filter"],
    ['no cond', { $filter: { input: [] } }, 28650, "Missing 'cond' parameter to $filter"],
    ['an invalid as', { $filter: { input: [], as: 'X', cond: true } }, 9, "'X' starts with an invalid character for a user variable name"],
    ['a non-string as', { $filter: { input: [], as: 1, cond: true } }, 9, 'empty variable names are not allowed'],
    ['the variable is not visible to input', { $filter: { input: '$$this', cond: true } }, 17276, 'Use of undefined variable: this'],
  ]);
});

describe('$map', () => {
  valueRows(
    [
      ['with $$this', { $map: { input: '$arr', in: { $multiply: ['$$this', 2] } } }, [2, 4, 6, 8]],
      ['with as', { $map: { input: '$docs', as: 'd', in: '$$d.v' } }, [1, 5]],
      ['a missing result is null', { $map: { input: '$docs', in: '$$this.w' } }, [null, null]],
      ['an empty input', { $map: { input: '$e', in: 1 } }, []],
      ['a null input', { $map: { input: '$n', in: 1 } }, null],
      ['a missing input', { $map: { input: '$nope', in: 1 } }, null],
      [
        'nested $map sees the outer variable',
        { $map: { input: [1, 2], as: 'x', in: { $map: { input: [10, 20], as: 'y', in: { $add: ['$$x', '$$y'] } } } } },
        [[11, 21], [12, 22]],
      ],
      ['an inner as of the same name shadows', { $map: { input: [1], in: { $map: { input: [5], in: '$$this' } } } }, [[5]]],
    ],
    DOC,
  );
  errorRows([['a non-array input', { $map: { input: '$s', in: 1 } }, 16883, 'input to $map must be an array not string']], DOC);
  parseErrorRows([
    ['not an object', { $map: 1 }, 16878, '$map only supports an object as its argument'],
    ['an unknown field', { $map: { input: [], in: 1, x: 1 } }, 16879, 'Unrecognized parameter to $map: x'],
    ['no input', { $map: { in: 1 } }, 16880, "Missing 'input' parameter to $map"],
    ['no in', { $map: { input: [] } }, 16882, "Missing 'in' parameter to $map"],
    ['an invalid as', { $map: { input: [], as: '1a', in: 1 } }, 9, "'1a' starts with an invalid character for a user variable name"],
  ]);
});

describe('$reduce', () => {
  valueRows(
    [
      ['a sum', { $reduce: { input: '$arr', initialValue: 0, in: { $add: ['$$value', '$$this'] } } }, 10],
      ['concatenation', { $reduce: { input: ['a', 'b', 'c'], initialValue: '', in: { $concat: ['$$value', '$$this'] } } }, 'abc'],
      ['an empty input is the initial value', { $reduce: { input: '$e', initialValue: new Double(1.5), in: 0 } }, new Double(1.5)],
      ['an accumulated array', { $reduce: { input: [[1], [2, 3]], initialValue: [], in: { $concatArrays: ['$$value', '$$this'] } } }, [1, 2, 3]],
      ['a null input', { $reduce: { input: '$n', initialValue: 0, in: 1 } }, null],
      ['a missing input', { $reduce: { input: '$nope', initialValue: 0, in: 1 } }, null],
      [
        'nested: the inner $$value is the inner one',
        { $reduce: { input: [[1, 2], [3]], initialValue: 0, in: { $add: ['$$value', { $reduce: { input: '$$this', initialValue: 100, in: { $add: ['$$value', '$$this'] } } }] } } },
        206,
      ],
    ],
    DOC,
  );
  it('a missing result is missing', () => {
    expect(evaluate({ $reduce: { input: [1], initialValue: 0, in: '$nope' } }, DOC)).toBe(undefined);
  });
  errorRows([['a non-array input', { $reduce: { input: '$s', initialValue: 0, in: 1 } }, 40080, "$reduce requires that 'input' be an array, found: \"x\""]], DOC);
  parseErrorRows([
    ['not an object', { $reduce: 'x' }, 40075, '$reduce requires an object as an argument, found: string'],
    ['an unknown field', { $reduce: { input: [], initialValue: 0, in: 1, as: 'x' } }, 40076, '$reduce found an unknown argument: as'],
    ['no input', { $reduce: { initialValue: 0, in: 1 } }, 40077, "$reduce requires 'input' to be specified"],
    ['no initialValue', { $reduce: { input: [], in: 1 } }, 40078, "$reduce requires 'initialValue' to be specified"],
    ['no in', { $reduce: { input: [], initialValue: 0 } }, 40079, "$reduce requires 'in' to be specified"],
    ['$$value is not visible to initialValue', { $reduce: { input: [], initialValue: '$$value', in: 1 } }, 17276, 'Use of undefined variable: value'],
  ]);
});
