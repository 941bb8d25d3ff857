/** `$bucket`: the intervals, the default bucket, the output fields, and mongod's errors in their order. */
import { describe, expect, it } from 'vitest';
import { Code, Decimal128, Double, Long, MinKey, type Document } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { runPipeline } from './stage_helpers.js';

const bucket = (spec: unknown, docs: Document[]): Document[] => runPipeline([{ $bucket: spec }], docs);

describe('$bucket intervals', () => {
  it('puts a value in [lower, upper), the last boundary in the default, and orders by _id', () => {
    const docs = [{ x: 0 }, { x: 5 }, { x: 10 }, { x: 20 }, { x: -3 }];
    expect(bucket({ groupBy: '$x', boundaries: [0, 10, 20], default: 'other' }, docs)).toEqual([
      { _id: 0, count: 2 },
      { _id: 10, count: 1 },
      { _id: 'other', count: 2 },
    ]);
  });

  it('keeps the boundary types as _id and routes other numeric types by value', () => {
    const docs = [{ x: 5 }, { x: Long.fromNumber(15) }, { x: Decimal128.fromString('10') }];
    expect(bucket({ groupBy: '$x', boundaries: [new Double(0), new Double(10), new Double(20)] }, docs)).toEqual([
      { _id: new Double(0), count: 1 },
      { _id: new Double(10), count: 2 },
    ]);
  });

  it('sends null, missing and other types to the default, ordered by BSON order', () => {
    const docs = [{ x: null }, {}, { x: 'a' }, { x: [5] }, { x: 15 }];
    expect(bucket({ groupBy: '$x', boundaries: [10, 20], default: -1 }, docs)).toEqual([
      { _id: -1, count: 4 },
      { _id: 10, count: 1 },
    ]);
  });

  it('renders a MinKey default as mongod 8.2 does, a Code default without scope as its string', () => {
    expect(bucket({ groupBy: '$x', boundaries: [0, 10], default: new MinKey() }, [{ x: 50 }])).toEqual([{ _id: { '': new MinKey() }, count: 1 }]);
    expect(bucket({ groupBy: '$x', boundaries: [0, 10], default: new Code('f') }, [{ x: 50 }])).toEqual([{ _id: 'f', count: 1 }]);
  });

  it('accumulates the output fields in order instead of count', () => {
    const docs = [{ x: 1, v: 10 }, { x: 2, v: 20 }, { x: 3, v: 30 }];
    expect(bucket({ groupBy: '$x', boundaries: [0, 10], output: { total: { $sum: '$v' }, items: { $push: '$v' }, top: { $topN: { n: 2, sortBy: { v: -1 }, output: '$v' } } } }, docs)).toEqual([
      { _id: 0, total: 60, items: [10, 20, 30], top: [30, 20] },
    ]);
    expect(bucket({ groupBy: '$x', boundaries: [0, 10], output: {} }, docs)).toEqual([{ _id: 0 }]);
  });

  it('folds constant expressions in boundaries and default', () => {
    expect(bucket({ groupBy: '$x', boundaries: [{ $add: [0, 0] }, 10], default: { $literal: 'd' } }, [{ x: 1 }, { x: 11 }])).toEqual([
      { _id: 0, count: 1 },
      { _id: 'd', count: 1 },
    ]);
  });
});

describe('$bucket errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a non-object', 5, 40201, 'Argument to $bucket stage must be an object, but found type: int.'],
    ['a non-path groupBy', { groupBy: 'x', boundaries: [0, 1] }, 40202, `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: "x".`],
    ['non-array boundaries', { groupBy: '$x', boundaries: 'b' }, 40200, "The $bucket 'boundaries' field must be an array, but found type: string."],
    ['a non-constant boundary', { groupBy: '$x', boundaries: [0, '$y'] }, 40191, `The $bucket 'boundaries' field must be an array of constant values, but found value: "$y".`],
    ['one boundary', { groupBy: '$x', boundaries: [1] }, 40192, "The $bucket 'boundaries' field must have at least 2 values, but found 1 value(s)."],
    ['mixed types', { groupBy: '$x', boundaries: [0, 'a'] }, 40193, "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types int and string."],
    ['unsorted', { groupBy: '$x', boundaries: [0, 5, 5] }, 40194, "The 'boundaries' option to $bucket must be sorted, but elements 1 and 2 are not in ascending order (5 is not less than 5)."],
    ['a non-constant default', { groupBy: '$x', boundaries: [0, 5], default: '$y' }, 40195, `The $bucket 'default' field must be a constant expression, but found: "$y".`],
    ['a non-object output', { groupBy: '$x', boundaries: [0, 5], output: 1 }, 40196, "The $bucket 'output' field must be an object, but found type: int."],
    ['an unknown option', { groupBy: '$x', boundaries: [0, 5], Output: {} }, 40197, 'Unrecognized option to $bucket: Output.'],
    ['no boundaries', { groupBy: '$x' }, 40198, "$bucket requires 'groupBy' and 'boundaries' to be specified."],
    ['a default inside', { groupBy: '$x', boundaries: [0, 5], default: 0 }, 40199, "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary."],
    ['an _id output', { groupBy: '$x', boundaries: [0, 5], output: { _id: { $sum: 1 } } }, 15948, "a group's _id may only be specified once"],
    ['a non-accumulator output', { groupBy: '$x', boundaries: [0, 5], output: { f: 1 } }, 40234, "The field 'f' must be an accumulator object"],
  ];
  for (const [name, spec, code, message] of cases) it(name, () => expectCommandError(() => bucket(spec, []), code, message));

  it('checks the fields in their order: groupBy before bad boundaries', () => {
    expectCommandError(() => bucket({ groupBy: 1, boundaries: 'b' }, []), 40202, "The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: 1.");
  });

  it('refuses a value in no interval without a default when it runs', () => {
    expectCommandError(() => bucket({ groupBy: '$x', boundaries: [0, 5] }, [{ x: 9 }]), 40066, '$switch could not find a matching branch for an input, and no default was specified.');
  });
});
