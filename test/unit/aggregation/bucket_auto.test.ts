/** `$bucketAuto`: the even cut, equal values kept together, the granularities, and mongod's errors. */
import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { runPipeline } from './stage_helpers.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { isolatedRuntime } from '../../../src/storage/aggregation/runtime.js';

const auto = (spec: unknown, docs: Document[]): Document[] => runPipeline([{ $bucketAuto: spec }], docs);
const xs = (values: unknown[]): Document[] => values.map((x, i) => ({ _id: i, x }));

describe('$bucketAuto distribution', () => {
  it('cuts round(n / buckets) documents per bucket, the last taking the rest', () => {
    expect(auto({ groupBy: '$x', buckets: 2 }, xs([1, 2, 3, 4, 5]))).toEqual([
      { _id: { min: 1, max: 4 }, count: 3 },
      { _id: { min: 4, max: 5 }, count: 2 },
    ]);
  });

  it('keeps equal values in one bucket and makes fewer buckets when it must', () => {
    expect(auto({ groupBy: '$x', buckets: 4 }, xs([1, 1, 2, 2]))).toEqual([
      { _id: { min: 1, max: 2 }, count: 2 },
      { _id: { min: 2, max: 2 }, count: 2 },
    ]);
  });

  it('groups missing with null and orders mixed types by BSON order', () => {
    expect(auto({ groupBy: '$x', buckets: 3 }, [{ _id: 1 }, { _id: 2, x: null }, { _id: 3, x: 'a' }, { _id: 4, x: 5 }])).toEqual([
      { _id: { min: null, max: 5 }, count: 2 },
      { _id: { min: 5, max: 'a' }, count: 1 },
      { _id: { min: 'a', max: 'a' }, count: 1 },
    ]);
  });

  it('feeds $first and $last in input order, the others in sorted order', () => {
    expect(auto({ groupBy: '$x', buckets: 1, output: { first: { $first: '$x' }, last: { $last: '$x' }, all: { $push: '$x' } } }, xs([3, 1, 2]))).toEqual([
      { _id: { min: 1, max: 3 }, first: 3, last: 2, all: [1, 2, 3] },
    ]);
  });

  it('yields the implicit count for an empty output', () => {
    expect(auto({ groupBy: '$x', buckets: 1, output: {} }, xs([1, 2]))).toEqual([{ _id: { min: 1, max: 2 }, count: 2 }]);
  });
});

describe('$bucketAuto granularity', () => {
  const docs = xs([1, 10, 100, 1000]);
  it('R5 rounds to doubles of the series', () => {
    expect(auto({ groupBy: '$x', buckets: 3, granularity: 'R5' }, docs)).toEqual([
      { _id: { min: 0.63, max: 1.6 }, count: 1 },
      { _id: { min: 1.6, max: new Double(16) }, count: 1 },
      { _id: { min: new Double(16), max: new Double(1600) }, count: 2 },
    ]);
  });
  it('POWERSOF2 rounds integers to integer powers (0.5 below one)', () => {
    expect(auto({ groupBy: '$x', buckets: 3, granularity: 'POWERSOF2' }, docs)).toEqual([
      { _id: { min: 0.5, max: 2 }, count: 1 },
      { _id: { min: 2, max: 16 }, count: 1 },
      { _id: { min: 16, max: 1024 }, count: 2 },
    ]);
  });
  it('E6 and 1-2-5', () => {
    expect(auto({ groupBy: '$x', buckets: 3, granularity: 'E6' }, docs)[0]).toEqual({ _id: { min: 0.68, max: 1.5 }, count: 1 });
    expect(auto({ groupBy: '$x', buckets: 3, granularity: '1-2-5' }, docs)[2]).toEqual({ _id: { min: new Double(20), max: new Double(2000) }, count: 2 });
  });
  it('rounds Decimal128 values in decimal', () => {
    const out = auto({ groupBy: '$x', buckets: 1, granularity: 'R5' }, xs([Decimal128.fromString('1'), Decimal128.fromString('2')]));
    expect(out).toEqual([{ _id: { min: Decimal128.fromString('0.63'), max: Decimal128.fromString('2.5') }, count: 2 }]);
  });
  it('refuses non-numeric, NaN and negative values', () => {
    expectCommandError(() => auto({ groupBy: '$x', buckets: 1, granularity: 'R5' }, xs(['a'])), 40258, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: string");
    expectCommandError(() => auto({ groupBy: '$x', buckets: 1, granularity: 'R5' }, xs([NaN])), 40259, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN");
    expectCommandError(() => auto({ groupBy: '$x', buckets: 1, granularity: 'R5' }, xs([-1])), 40260, "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number");
  });
});

describe('$bucketAuto errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['a non-object', 'x', 40240, 'The argument to $bucketAuto must be an object, but found type: string'],
    ['a non-path groupBy', { groupBy: 'x', buckets: 1 }, 40239, `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: "x"`],
    ['non-numeric buckets', { groupBy: '$x', buckets: '2' }, 40241, "The $bucketAuto 'buckets' field must be a numeric value, but found type: string"],
    ['fractional buckets', { groupBy: '$x', buckets: 2.5 }, 40242, "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found 2.5"],
    ['buckets beyond Int32', { groupBy: '$x', buckets: Long.fromNumber(2 ** 31) }, 40242, "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found 2.14748e+09"],
    ['zero buckets', { groupBy: '$x', buckets: 0 }, 40243, "The $bucketAuto 'buckets' field must be greater than 0, but found: 0"],
    ['a non-object output', { groupBy: '$x', buckets: 1, output: [] }, 40244, "The $bucketAuto 'output' field must be an object, but found type: array"],
    ['an unknown option', { groupBy: '$x', buckets: 1, extra: 1 }, 40245, 'Unrecognized option to $bucketAuto: extra'],
    ['no buckets', { groupBy: '$x' }, 40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified"],
    ['an unknown granularity', { groupBy: '$x', buckets: 1, granularity: 'R7' }, 40257, 'Unknown rounding mode for granularity: R7'],
    ['a non-string granularity', { groupBy: '$x', buckets: 1, granularity: 5 }, 40261, "The $bucketAuto 'granularity' field must be a string, but found type: int"],
    ['a dotted output field', { groupBy: '$x', buckets: 1, output: { 'a.b': { $sum: 1 } } }, 40235, "The field name 'a.b' cannot contain '.'"],
  ];
  for (const [name, spec, code, message] of cases) it(name, () => expectCommandError(() => auto(spec, []), code, message));
});

describe('$bucketAuto memory limit', () => {
  const big = 'x'.repeat(1 << 20);
  const docs = Array.from({ length: 101 }, (_, i) => ({ _id: i, x: i, big }));
  const runWithDisk = (allowDiskUse: boolean | undefined): Document[] => {
    const runtime = { ...isolatedRuntime(), ...(allowDiskUse === undefined ? {} : { allowDiskUse }) };
    const ctx = newPipelineContext({ now: new Date(0), runtime });
    return Array.from(compilePipeline([{ $bucketAuto: { groupBy: '$x', buckets: 1 } }], ctx)(docs));
  };
  it('goes past 100 MiB when it may spill (the default)', () => {
    expect(runWithDisk(undefined)).toEqual([{ _id: { min: 0, max: 100 }, count: 101 }]);
    expect(runWithDisk(true)).toEqual([{ _id: { min: 0, max: 100 }, count: 101 }]);
  });
  it('fails past 100 MiB under allowDiskUse: false', () => {
    expectCommandError(() => runWithDisk(false), 292, "Exceeded memory limit for $bucketAuto, but didn't allow external spilling; pass allowDiskUse:true to opt in.");
  });
});
