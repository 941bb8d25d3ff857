import { describe, it } from 'vitest';
import { Double, type Document } from '../../../src/bson/library.js';
import { expectCommandError, expectExact } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

describe('$fill', () => {
  const cases: Array<[string, Document, Document[], Document[]]> = [
    [
      'locf carries the last non-null value, in input order without sortBy',
      { output: { value: { method: 'locf' } } },
      [{ _id: 1, value: 1 }, { _id: 2, value: null }, { _id: 3, value: 3 }, { _id: 4 }],
      [{ _id: 1, value: 1 }, { _id: 2, value: 1 }, { _id: 3, value: 3 }, { _id: 4, value: 3 }],
    ],
    [
      'locf with nothing before writes null',
      { sortBy: { t: 1 }, output: { v: { method: 'locf' } } },
      [{ _id: 1, t: 2, v: 5 }, { _id: 2, t: 1 }],
      [{ _id: 2, t: 1, v: null }, { _id: 1, t: 2, v: 5 }],
    ],
    [
      'linear interpolates along sortBy (Double results, ends left null)',
      { sortBy: { t: 1 }, output: { v: { method: 'linear' } } },
      [{ _id: 1, t: 0 }, { _id: 2, t: 1, v: 10 }, { _id: 3, t: 2, v: null }, { _id: 4, t: 4 }, { _id: 5, t: 5, v: 40 }, { _id: 6, t: 6 }],
      [
        { _id: 1, t: 0, v: null },
        { _id: 2, t: 1, v: 10 },
        { _id: 3, t: 2, v: new Double(17.5) },
        { _id: 4, t: 4, v: new Double(32.5) },
        { _id: 5, t: 5, v: 40 },
        { _id: 6, t: 6, v: null },
      ],
    ],
    [
      'linear along dates',
      { sortBy: { t: 1 }, output: { v: { method: 'linear' } } },
      [{ _id: 1, t: new Date(0), v: 0 }, { _id: 2, t: new Date(1000) }, { _id: 3, t: new Date(4000), v: 8 }],
      [{ _id: 1, t: new Date(0), v: 0 }, { _id: 2, t: new Date(1000), v: new Double(2) }, { _id: 3, t: new Date(4000), v: 8 }],
    ],
    [
      'value fills null and missing with an expression of the document',
      { output: { v: { value: { $multiply: ['$n', 2] } }, w: { value: 'none' } } },
      [{ _id: 1, n: 3, v: null }, { _id: 2, n: 1, v: 7, w: 'x' }, { _id: 3, n: 4 }],
      [{ _id: 1, n: 3, v: 6, w: 'none' }, { _id: 2, n: 1, v: 7, w: 'x' }, { _id: 3, n: 4, v: 8, w: 'none' }],
    ],
    [
      'partitionByFields: methods run within each partition, output sorted by partition then sortBy',
      { partitionByFields: ['k'], sortBy: { t: 1 }, output: { v: { method: 'locf' } } },
      [{ _id: 1, k: 'b', t: 1, v: 'b1' }, { _id: 2, k: 'a', t: 2 }, { _id: 3, k: 'a', t: 1, v: 'a1' }, { _id: 4, k: 'b', t: 2 }],
      [{ _id: 3, k: 'a', t: 1, v: 'a1' }, { _id: 2, k: 'a', t: 2, v: 'a1' }, { _id: 1, k: 'b', t: 1, v: 'b1' }, { _id: 4, k: 'b', t: 2, v: 'b1' }],
    ],
    [
      'partitionBy, an expression',
      { partitionBy: { $mod: ['$_id', 2] }, sortBy: { _id: 1 }, output: { v: { method: 'locf' } } },
      [{ _id: 1, v: 'odd' }, { _id: 2, v: 'even' }, { _id: 3 }, { _id: 4 }],
      [{ _id: 2, v: 'even' }, { _id: 4, v: 'even' }, { _id: 1, v: 'odd' }, { _id: 3, v: 'odd' }],
    ],
    [
      'a nested output field',
      { sortBy: { t: 1 }, output: { 'm.v': { method: 'locf' } } },
      [{ _id: 1, t: 1, m: { v: 1 } }, { _id: 2, t: 2, m: { w: 1 } }],
      [{ _id: 1, t: 1, m: { v: 1 } }, { _id: 2, t: 2, m: { w: 1, v: 1 } }],
    ],
  ];
  for (const [name, spec, input, expected] of cases) {
    it(name, () => expectExact(runPipeline([{ $fill: spec }], input), expected));
  }
});

describe('$fill errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['not an object', 1, 9, 'The $fill stage specification must be an object, found int'],
    ['no output', {}, 40414, "BSON field '$fill.output' is missing but a required field"],
    ['an unknown field', { output: {}, x: 1 }, 40415, "BSON field '$fill.x' is an unknown field."],
    ['partitionBy and partitionByFields', { partitionBy: '$a', partitionByFields: ['a'], output: { v: { value: 1 } } }, 6050204, "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'"],
    ['both value and method', { output: { v: { value: 1, method: 'locf' } } }, 6050202, "Exactly one of 'value' and 'method' must be specified per field"],
    ['neither value nor method', { output: { v: {} } }, 6050202, "Exactly one of 'value' and 'method' must be specified per field"],
    ['an unknown method', { output: { v: { method: 'mean' } } }, 6050203, "Method must be either 'locf' or 'linear'"],
    ['a sortBy that is not an object', { sortBy: 1, output: { v: { value: 1 } } }, 14, "BSON field '$fill.sortBy' is the wrong type 'int', expected type 'object'"],
  ];
  for (const [name, spec, code, message] of cases) {
    it(name, () => expectCommandError(() => runPipeline([{ $fill: spec }], []), code, message));
  }
});
