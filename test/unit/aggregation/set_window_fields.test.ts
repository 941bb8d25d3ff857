import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Decimal128, Double, type Document } from '../../../src/bson/library.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { isolatedRuntime } from '../../../src/storage/aggregation/runtime.js';
import { WINDOW_FUNCTIONS } from '../../../src/storage/aggregation/window/registry.js';
import { slide } from '../../../src/storage/aggregation/window/bounds.js';
import { expectCommandError, expectExact } from './helpers.js';

const NOW = new Date(1_700_000_000_000);

function run(stage: Document, docs: Document[]): Document[] {
  return Array.from(compilePipeline([{ $setWindowFields: stage }], newPipelineContext({ now: NOW }))(docs));
}

/** The `r` field of each output document, in order. */
function results(stage: Document, docs: Document[]): unknown[] {
  return run(stage, docs).map((d) => d.r);
}

const FIVE: Document[] = [1, 2, 3, 4, 5].map((i) => ({ _id: i, v: i * 10 }));

describe('$setWindowFields frames', () => {
  it('a sliding documents window removes what leaves it', () => {
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $sum: '$v', window: { documents: [-1, 1] } } } }, FIVE), [30, 60, 90, 120, 90]);
  });
  it('no window is the whole partition, partitions apart, missing as null', () => {
    const docs = [{ _id: 1, p: 'a', v: 1 }, { _id: 2, v: 2 }, { _id: 3, p: null, v: 4 }, { _id: 4, p: 'a', v: 8 }];
    expectExact(run({ partitionBy: '$p', sortBy: { _id: 1 }, output: { r: { $sum: '$v' } } }, docs), [
      { _id: 2, v: 2, r: 6 },
      { _id: 3, p: null, v: 4, r: 6 },
      { _id: 1, p: 'a', v: 1, r: 9 },
      { _id: 4, p: 'a', v: 8, r: 9 },
    ]);
  });
  it('a frame wholly before the partition is empty', () => {
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $push: '$v', window: { documents: [-3, -2] } } } }, FIVE), [[], [], [10], [10, 20], [20, 30]]);
  });
  it('a numeric range window over the sortBy values', () => {
    const docs = [1, 2, 4, 7, 8].map((x) => ({ _id: x, x }));
    expectExact(results({ sortBy: { x: 1 }, output: { r: { $count: {}, window: { range: [-1, 1] } } } }, docs), [2, 2, 1, 2, 2]);
  });
  it('a time range window with a unit', () => {
    const day = 86_400_000;
    const docs = [0, 1, 3].map((d) => ({ _id: d, t: new Date(d * day), v: 1 }));
    expectExact(results({ sortBy: { t: 1 }, output: { r: { $sum: '$v', window: { range: [-1, 0], unit: 'day' } } } }, docs), [1, 2, 1]);
  });
  it('$min over a sliding window finds the next minimum when it leaves', () => {
    const docs = [3, 1, 4, 1, 5].map((v, i) => ({ _id: i, v }));
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $min: '$v', window: { documents: [-1, 0] } } } }, docs), [3, 1, 1, 1, 1]);
  });
  it('sliding $stdDevPop is null while an infinity is in the frame', () => {
    const docs = [Infinity, 10, 20].map((v, i) => ({ _id: i, v: new Double(v) }));
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $stdDevPop: '$v', window: { documents: [-1, 0] } } } }, docs), [null, null, new Double(5)]);
  });
});

describe('window-only functions', () => {
  const tied = [{ _id: 1, s: 5 }, { _id: 2, s: 5 }, { _id: 3, s: 7 }];
  it('$rank, $denseRank, $documentNumber', () => {
    expectExact(
      run({ sortBy: { s: 1 }, output: { a: { $rank: {} }, b: { $denseRank: {} }, c: { $documentNumber: {} } } }, tied).map((d) => [d.a, d.b, d.c]),
      [[1, 1, 1], [1, 1, 2], [3, 2, 3]],
    );
  });
  it('$shift with a default', () => {
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $shift: { output: '$v', by: 2, default: 'none' } } } }, FIVE), [30, 40, 50, 'none', 'none']);
  });
  it('$locf and $linearFill', () => {
    const docs = [{ _id: 1, v: 10 }, { _id: 2, v: null }, { _id: 3 }, { _id: 4, v: 40 }, { _id: 5 }];
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $locf: '$v' } } }, docs), [10, 10, 10, 40, 40]);
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $linearFill: '$v' } } }, docs), [10, new Double(20), new Double(30), 40, null]);
  });
  it('$covariancePop and $covarianceSamp', () => {
    const docs = [1, 2, 3].map((x) => ({ _id: x, x, y: 2 * x }));
    expectExact(results({ output: { r: { $covariancePop: ['$x', '$y'] } } }, docs)[0], new Double(4 / 3));
    expectExact(results({ output: { r: { $covarianceSamp: ['$x', '$y'] } } }, docs)[0], new Double(2));
  });
  it('$covariancePop of Decimal128 values is a Decimal128', () => {
    const docs = [1, 2].map((x) => ({ _id: x, x: Decimal128.fromString(String(x)), y: Decimal128.fromString(String(2 * x)) }));
    expectExact(results({ output: { r: { $covariancePop: ['$x', '$y'] } } }, docs)[0], Decimal128.fromString('0.5'));
  });
  it('a Decimal128 past the range of doubles is finite to $covariancePop', () => {
    const max = Decimal128.fromString('9.999999999999999999999999999999999E+6144');
    const docs = [1, 2].map((y) => ({ _id: y, x: max, y: Decimal128.fromString(String(y)) }));
    expectExact(results({ output: { r: { $covariancePop: ['$x', '$y'] } } }, docs), [Decimal128.fromString('0E+14'), Decimal128.fromString('0E+14')]);
  });
  it('$integral and $derivative with a unit', () => {
    const docs = [0, 10, 20].map((s, i) => ({ _id: i, t: new Date(s * 1000), v: 10 * (i + 1) }));
    expectExact(
      results({ sortBy: { t: 1 }, output: { r: { $integral: { input: '$v', unit: 'second' }, window: { documents: ['unbounded', 'current'] } } } }, docs),
      [new Double(0), new Double(150), new Double(400)],
    );
    expectExact(
      results({ sortBy: { t: 1 }, output: { r: { $derivative: { input: '$v', unit: 'second' }, window: { documents: [-1, 0] } } } }, docs),
      [null, new Double(1), new Double(1)],
    );
  });
  it('$expMovingAvg with N', () => {
    const docs = [10, 12, 15].map((v, i) => ({ _id: i, v }));
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $expMovingAvg: { input: '$v', N: 2 } } } }, docs), [
      new Double(10),
      new Double(11.333333333333334),
      new Double(13.777777777777779),
    ]);
  });
});

describe('$expMovingAvg in Decimal128', () => {
  it('computes in Decimal128 and answers a Decimal128 once one is seen', () => {
    const docs = [{ _id: 1, v: Decimal128.fromString('10') }, { _id: 2, v: 20 }];
    expectExact(results({ sortBy: { _id: 1 }, output: { r: { $expMovingAvg: { input: '$v', alpha: 0.5 } } } }, docs), [
      Decimal128.fromString('10'),
      // α = 0.5 as mongod's Decimal128(double): 15 digits, 0.500000000000000.
      Decimal128.fromString('15.000000000000000'),
    ]);
  });
});

describe('$setWindowFields errors', () => {
  const parse = (stage: unknown) => () => compilePipeline([{ $setWindowFields: stage }], newPipelineContext({ now: NOW }));
  it('the stage and its fields', () => {
    expectCommandError(parse(1), 9, 'the $setWindowFields stage specification must be an object, found int');
    expectCommandError(parse({ sortBy: { a: 1 } }), 40414, "BSON field '$setWindowFields.output' is missing but a required field");
    expectCommandError(parse({ output: {}, other: 1 }), 40415, "BSON field '$setWindowFields.other' is an unknown field.");
    expectCommandError(parse({ sortBy: 5, output: {} }), 14, "BSON field '$setWindowFields.sortBy' is the wrong type 'int', expected type 'object'");
    expectCommandError(
      parse({ sortBy: { a: 1 }, output: { a: { $sum: 1 }, 'a.b': { $sum: 1 } } }),
      6307900,
      "$setWindowFields 'output' specification contains two conflicting paths",
    );
  });
  it('the functions and frames', () => {
    expectCommandError(parse({ output: { r: { $summ: 1 } } }), 9, 'Unrecognized window function, $summ');
    expectCommandError(parse({ output: { r: { $sum: 1, window: { documents: [-1, 0] } } } }), 5339901, 'Document-based bounds require a sortBy');
    expectCommandError(parse({ sortBy: { a: 1 }, output: { r: { $sum: 1, window: { documents: [1, 0] } } } }), 5339900, 'Lower bound must not exceed upper bound: [1, 0]');
    expectCommandError(parse({ sortBy: { a: 1, b: 1 }, output: { r: { $sum: 1, window: { range: [-1, 0] } } } }), 5339902, 'Range-based bounds require sortBy a single field');
    expectCommandError(
      parse({ sortBy: { a: 1, b: 1 }, output: { r: { $rank: {} } } }),
      5371602,
      '$rank must be specified with a top level sortBy expression with exactly one element',
    );
    expectCommandError(parse({ sortBy: { a: 1 }, output: { r: { $locf: '$a', window: {} } } }), 9, "'window' field is not allowed in $locf");
  });
  it('a range frame over a sortBy value that is not a number', () => {
    expect(() => run({ sortBy: { x: 1 }, output: { r: { $sum: 1, window: { range: [-1, 1] } } } }, [{ _id: 1, x: 'a' }])).toThrow(
      'Invalid range: Expected the sortBy field to be a number, but it was string',
    );
  });
});

describe('$setWindowFields memory', () => {
  it('with allowDiskUse: false a partition past 100 MB is 5414201', () => {
    const big = 'x'.repeat(1024 * 1024);
    const docs = Array.from({ length: 101 }, (_, i) => ({ _id: i, s: big }));
    const runtime = { ...isolatedRuntime(), allowDiskUse: false };
    const pipeline = compilePipeline([{ $setWindowFields: { output: { c: { $count: {} } } } }], newPipelineContext({ now: NOW, runtime }));
    expect(() => Array.from(pipeline(docs))).toThrow(/^Exceeded memory limit in DocumentSourceSetWindowFields, used \d+ bytes but max allowed is 104857600$/);
    const unlimited = compilePipeline([{ $setWindowFields: { output: { c: { $count: {} } } } }], newPipelineContext({ now: NOW }));
    expect(Array.from(unlimited(docs)).length).toBe(101);
  });
});

describe('the window function table', () => {
  it('is sorted, and every file of window/functions/ defines one registered function', async () => {
    const names = WINDOW_FUNCTIONS.map((d) => d.name);
    expect(names).toEqual([...names].sort());
    const dir = fileURLToPath(new URL('../../../src/storage/aggregation/window/functions/', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBe(WINDOW_FUNCTIONS.length);
    for (const file of files) {
      const exported = Object.values(await import(`${dir}${file}`)) as unknown[];
      expect(exported.filter((v) => WINDOW_FUNCTIONS.includes(v as never)).length).toBe(1);
    }
  });
  it('$covariancePop is a window function only: $group does not know it (15952)', () => {
    expectCommandError(
      () => compilePipeline([{ $group: { _id: null, c: { $covariancePop: '$a' } } }], newPipelineContext({ now: NOW })),
      15952,
      "unknown group operator '$covariancePop'",
    );
  });
});

describe('window outputs of missing values', () => {
  it('$first of a missing value leaves the field unset; of an empty frame, null', () => {
    const docs = [{ _id: 1 }, { _id: 2, v: 2 }];
    expectExact(run({ sortBy: { _id: 1 }, output: { r: { $first: '$v', window: { documents: [0, 1] } } } }, docs), [{ _id: 1 }, { _id: 2, v: 2, r: 2 }]);
    expectExact(run({ sortBy: { _id: 1 }, output: { r: { $last: '$v', window: { documents: [2, 3] } } } }, docs), [{ _id: 1, r: null }, { _id: 2, v: 2, r: null }]);
  });
  it('$shift of a missing value leaves the field unset', () => {
    expectExact(run({ sortBy: { _id: 1 }, output: { r: { $shift: { output: '$v', by: -1 } } } }, [{ _id: 1, v: 1 }, { _id: 2 }, { _id: 3 }]), [
      { _id: 1, v: 1, r: null },
      { _id: 2, r: 1 },
      { _id: 3 },
    ]);
  });
  it('$count with a second function', () => {
    expectCommandError(
      () => compilePipeline([{ $setWindowFields: { output: { r: { $count: {}, $sum: 1 } } } }], newPipelineContext({ now: NOW })),
      9,
      'Cannot specify multiple functions in window function spec',
    );
  });
});

describe('$linearFill checks', () => {
  it('a repeated sortBy value is 6050106, a string to fill is TypeMismatch', () => {
    expect(() => run({ sortBy: { x: 1 }, output: { r: { $linearFill: '$y' } } }, [{ _id: 1, x: 1, y: 1 }, { _id: 2, x: 1 }])).toThrow(
      'There can be no repeated values in the sort field',
    );
    expect(() => run({ sortBy: { x: 1 }, output: { r: { $linearFill: '$y' } } }, [{ _id: 1, x: 1, y: 'a' }])).toThrow(
      'Value to be filled must be numeric or nullish, but found string',
    );
  });
  it('interpolates along dates', () => {
    const docs = [0, 1, 4].map((d, i) => ({ _id: i, t: new Date(d * 1000), y: i === 1 ? null : i * 10 }));
    expectExact(results({ sortBy: { t: 1 }, output: { r: { $linearFill: '$y' } } }, docs), [0, new Double(5), 20]);
  });
});

describe('$integral types', () => {
  it('integers without a unit: trapezoids are Doubles (divided by 2.0), a single point is Int32 0', () => {
    const docs = [0, 2, 4].map((x) => ({ _id: x, x, y: x }));
    expectExact(results({ sortBy: { x: 1 }, output: { r: { $integral: { input: '$y' }, window: { documents: [-1, 0] } } } }, docs), [
      0,
      new Double(2),
      new Double(6),
    ]);
  });
  it('a Date sortBy without a unit is 5423902', () => {
    expect(() => run({ sortBy: { t: 1 }, output: { r: { $integral: { input: '$v' } } } }, [{ _id: 1, t: new Date(0), v: 1 }])).toThrow(
      "$integral (with no 'outputUnit') expects the sortBy field to be numeric",
    );
  });
});

describe('slide', () => {
  it('adds each value once and removes each once: O(1) a document for a removable state', () => {
    const n = 1000;
    const starts = Int32Array.from({ length: n }, (_, i) => Math.max(0, i - 9));
    const ends = Int32Array.from({ length: n }, (_, i) => i + 1);
    let adds = 0;
    let removes = 0;
    let total = 0;
    const state = {
      add: (v: unknown) => {
        adds++;
        total += v as number;
      },
      remove: (v: unknown) => {
        removes++;
        total -= v as number;
      },
      result: () => total,
      reset: () => {
        total = 0;
      },
    };
    const out: unknown[] = new Array(n);
    slide({ starts, ends }, Array.from({ length: n }, (_, i) => i), state, true, out);
    expect({ adds, removes, last: out[n - 1] }).toEqual({ adds: n, removes: n - 10, last: 990 + 991 + 992 + 993 + 994 + 995 + 996 + 997 + 998 + 999 });
  });
  it('a state that cannot remove is refed the frame when its lower end moves', () => {
    let adds = 0;
    const values: number[] = [];
    const state = {
      add: (v: unknown) => {
        adds++;
        values.push(v as number);
      },
      remove: () => {
        throw new Error('not removable');
      },
      result: () => values.slice(),
      reset: () => {
        values.length = 0;
      },
    };
    const out: unknown[] = new Array(3);
    slide({ starts: Int32Array.from([0, 1, 2]), ends: Int32Array.from([2, 3, 3]) }, [10, 20, 30], state, false, out);
    expect({ adds, out }).toEqual({ adds: 2 + 2 + 1, out: [[10, 20], [20, 30], [30]] });
  });
});
