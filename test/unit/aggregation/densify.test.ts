import { describe, it } from 'vitest';
import { Double, type Document } from '../../../src/bson/library.js';
import { expectCommandError, expectExact } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

const d = (iso: string): Date => new Date(iso);

describe('$densify', () => {
  const cases: Array<[string, Document, Document[], Document[]]> = [
    [
      'full bounds fill the gaps of one sequence',
      { field: 'time', range: { step: 1, bounds: 'full' } },
      [{ _id: 1, time: 1 }, { _id: 2, time: 5 }],
      [{ _id: 1, time: 1 }, { time: 2 }, { time: 3 }, { time: 4 }, { _id: 2, time: 5 }],
    ],
    [
      'the input is sorted by the field first; null and missing pass through first',
      { field: 'v', range: { step: 2, bounds: 'full' } },
      [{ _id: 1, v: 6 }, { _id: 2 }, { _id: 3, v: 0 }, { _id: 4, v: null }],
      [{ _id: 2 }, { _id: 4, v: null }, { _id: 3, v: 0 }, { v: 2 }, { v: 4 }, { _id: 1, v: 6 }],
    ],
    [
      'values off the grid keep the grid from the minimum',
      { field: 'v', range: { step: 2, bounds: 'full' } },
      [{ _id: 1, v: 0 }, { _id: 2, v: 3 }, { _id: 3, v: 7 }],
      [{ _id: 1, v: 0 }, { v: 2 }, { _id: 2, v: 3 }, { v: 4 }, { v: 6 }, { _id: 3, v: 7 }],
    ],
    [
      'explicit bounds: grid values below the upper bound, documents outside pass',
      { field: 'v', range: { step: 1, bounds: [2, 5] } },
      [{ _id: 1, v: 0 }, { _id: 2, v: 3 }, { _id: 3, v: 9 }],
      [{ _id: 1, v: 0 }, { v: 2 }, { _id: 2, v: 3 }, { v: 4 }, { _id: 3, v: 9 }],
    ],
    [
      'explicit bounds over an empty input generate the whole range',
      { field: 'v', range: { step: 5, bounds: [0, 15] } },
      [],
      [{ v: 0 }, { v: 5 }, { v: 10 }],
    ],
    [
      'partition bounds densify each partition over its own range',
      { field: 'v', partitionByFields: ['k'], range: { step: 1, bounds: 'partition' } },
      [{ _id: 1, k: 'b', v: 10 }, { _id: 2, k: 'a', v: 1 }, { _id: 3, k: 'a', v: 3 }, { _id: 4, k: 'b', v: 12 }],
      [{ _id: 2, k: 'a', v: 1 }, { k: 'a', v: 2 }, { _id: 3, k: 'a', v: 3 }, { _id: 1, k: 'b', v: 10 }, { k: 'b', v: 11 }, { _id: 4, k: 'b', v: 12 }],
    ],
    [
      'full bounds with partitions densify every partition over the whole range',
      { field: 'v', partitionByFields: ['k'], range: { step: 1, bounds: 'full' } },
      [{ _id: 1, k: 'a', v: 0 }, { _id: 2, k: 'b', v: 2 }],
      [{ _id: 1, k: 'a', v: 0 }, { k: 'b', v: 0 }, { k: 'b', v: 1 }, { _id: 2, k: 'b', v: 2 }, { k: 'a', v: 1 }, { k: 'a', v: 2 }],
    ],
    [
      'a nested field and a nested partition field',
      { field: 'm.v', partitionByFields: ['p.k'], range: { step: 1, bounds: 'partition' } },
      [{ _id: 1, p: { k: 1 }, m: { v: 1 } }, { _id: 2, p: { k: 1 }, m: { v: 3 } }],
      [{ _id: 1, p: { k: 1 }, m: { v: 1 } }, { p: { k: 1 }, m: { v: 2 } }, { _id: 2, p: { k: 1 }, m: { v: 3 } }],
    ],
    [
      'a Double step makes Double values',
      { field: 'v', range: { step: new Double(0.5), bounds: 'full' } },
      [{ _id: 1, v: 1 }, { _id: 2, v: 2 }],
      [{ _id: 1, v: 1 }, { v: new Double(1.5) }, { _id: 2, v: 2 }],
    ],
    [
      'dates by hours',
      { field: 't', range: { step: 6, unit: 'hour', bounds: 'full' } },
      [{ _id: 1, t: d('2024-01-01T00:00:00Z') }, { _id: 2, t: d('2024-01-01T18:00:00Z') }],
      [{ _id: 1, t: d('2024-01-01T00:00:00Z') }, { t: d('2024-01-01T06:00:00Z') }, { t: d('2024-01-01T12:00:00Z') }, { _id: 2, t: d('2024-01-01T18:00:00Z') }],
    ],
    [
      'dates by months, between explicit bounds',
      { field: 't', range: { step: 1, unit: 'month', bounds: [d('2024-01-15T00:00:00Z'), d('2024-04-15T00:00:00Z')] } },
      [{ _id: 1, t: d('2024-02-15T00:00:00Z') }],
      [{ t: d('2024-01-15T00:00:00Z') }, { _id: 1, t: d('2024-02-15T00:00:00Z') }, { t: d('2024-03-15T00:00:00Z') }],
    ],
  ];
  for (const [name, spec, input, expected] of cases) {
    it(name, () => expectExact(runPipeline([{ $densify: spec }], input), expected));
  }
});

describe('$densify errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['not an object', 1, 9, 'The $densify stage specification must be an object, found int'],
    ['no field', { range: { step: 1, bounds: 'full' } }, 40414, "BSON field '$densify.field' is missing but a required field"],
    ['no range', { field: 'v' }, 40414, "BSON field '$densify.range' is missing but a required field"],
    ['an unknown field', { field: 'v', range: { step: 1, bounds: 'full' }, x: 1 }, 40415, "BSON field '$densify.x' is an unknown field."],
    ['a field that is not a string', { field: 1, range: { step: 1, bounds: 'full' } }, 14, "BSON field '$densify.field' is the wrong type 'int', expected type 'string'"],
    ['a zero step', { field: 'v', range: { step: 0, bounds: 'full' } }, 5733401, 'The step parameter in a range statement must be a strictly positive numeric value'],
    ['a string step', { field: 'v', range: { step: '1', bounds: 'full' } }, 5733401, 'The step parameter in a range statement must be a strictly positive numeric value'],
    ['a fractional date step', { field: 'v', range: { step: 1.5, unit: 'day', bounds: 'full' } }, 6586400, 'The step parameter in a range statement must be a whole number when densifying a date range'],
    ['a bad bounds string', { field: 'v', range: { step: 1, bounds: 'all' } }, 5946802, "Bounds string must either be 'full' or 'partition'"],
    ['bounds of one value', { field: 'v', range: { step: 1, bounds: [1] } }, 5733403, 'A bounding array in a range statement must have exactly two elements'],
    ['descending bounds', { field: 'v', range: { step: 1, bounds: [5, 1] } }, 5733402, 'A bounding array must be an ascending array of either two dates or two numbers'],
    ['numeric bounds with a unit', { field: 'v', range: { step: 1, unit: 'day', bounds: [1, 5] } }, 5733409, 'Numeric bounds may not have unit parameter'],
    ['date bounds without a unit', { field: 'v', range: { step: 1, bounds: [d('2024-01-01'), d('2024-02-01')] } }, 5733410, 'A bounding array of dates must specify a unit'],
    ['bounds of another type', { field: 'v', range: { step: 1, bounds: ['a', 'b'] } }, 5946800, 'Explicit bounds must be numeric or dates'],
    ['bounds of a wrong type', { field: 'v', range: { step: 1, bounds: 3 } }, 5733404, "The bounds in a range statement must be the string 'full', 'partition', or an ascending array of two numbers or two dates"],
    [
      'partition bounds without partitions',
      { field: 'v', range: { step: 1, bounds: 'partition' } },
      5733408,
      "One cannot specify the bounds as 'partition' without specifying a non-empty array of partitionByFields. You may have meant to specify 'full' bounds.",
    ],
    ['a $-prefixed field', { field: '$v', range: { step: 1, bounds: 'full' } }, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."],
  ];
  for (const [name, spec, code, message] of cases) {
    it(name, () => expectCommandError(() => runPipeline([{ $densify: spec }], []), code, message));
  }

  it('a value that is neither a number nor a date', () => {
    expectCommandError(() => runPipeline([{ $densify: { field: 'v', range: { step: 1, bounds: 'full' } } }], [{ v: 'x' }]), 5733201, 'Densify field type must be numeric or a date');
  });

  it('too many generated documents', () => {
    expectCommandError(
      () => runPipeline([{ $densify: { field: 'v', range: { step: 1, bounds: 'full' } } }], [{ v: 0 }, { v: 10_000_000 }]),
      5897900,
      "Generated 500001 documents in $densify, which is over the limit of 500000. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents",
    );
  });
});
