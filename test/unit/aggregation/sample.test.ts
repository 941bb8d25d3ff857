import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, type Document } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { runPipeline, seeded } from './stage_helpers.js';

const DOCS: Document[] = Array.from({ length: 10 }, (_, i) => ({ _id: i }));
const ids = (docs: Document[]): number[] => docs.map((d) => d._id as number);

describe('$sample sizes', () => {
  const cases: Array<[string, unknown, number]> = [
    ['an Int32', 3, 3],
    ['an Int64', Long.fromNumber(4), 4],
    ['a Double, truncated', new Double(2.9), 2],
    ['a Decimal128 rounded half to even (2.5)', Decimal128.fromString('2.5'), 2],
    ['a Decimal128 rounded half to even (3.5)', Decimal128.fromString('3.5'), 4],
    ['a Decimal128 above half (0.51)', Decimal128.fromString('0.51'), 1],
    ['more than the input', 50, 10],
    ['infinity', new Double(Infinity), 10],
  ];
  for (const [name, size, n] of cases) {
    it(name, () => expect(runPipeline([{ $sample: { size } }], DOCS, seeded(1)).length).toBe(n));
  }
});

describe('$sample draws', () => {
  it('draws distinct input documents', () => {
    const out = ids(runPipeline([{ $sample: { size: 6 } }], DOCS, seeded(7)));
    expect(new Set(out).size).toBe(6);
    for (const id of out) expect(id >= 0 && id < 10).toBe(true);
  });

  it('is reproducible under a seed and differs between seeds', () => {
    const a = ids(runPipeline([{ $sample: { size: 5 } }], DOCS, seeded(42)));
    expect(ids(runPipeline([{ $sample: { size: 5 } }], DOCS, seeded(42)))).toEqual(a);
    expect(ids(runPipeline([{ $sample: { size: 5 } }], DOCS, seeded(43)))).not.toEqual(a);
  });

  it('returns the whole input in a random order when size exceeds it', () => {
    const out = ids(runPipeline([{ $sample: { size: 100 } }], DOCS, seeded(3)));
    expect([...out].sort((x, y) => x - y)).toEqual(ids(DOCS));
  });

  it('is uniform: each document is drawn about size/n of the time', () => {
    const random = seeded(2026);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 4000; i++) for (const id of ids(runPipeline([{ $sample: { size: 3 } }], DOCS, random))) counts[id]!++;
    // Expected 1200 each; a binomial standard deviation is about 29.
    for (const c of counts) expect(Math.abs(c - 1200)).toBeLessThan(150);
  });

  it('an empty input samples nothing', () => {
    expect(runPipeline([{ $sample: { size: 2 } }], [], seeded(1))).toEqual([]);
  });
});

describe('$sample errors', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['not an object', 5, 28745, 'the $sample stage specification must be an object'],
    ['null', null, 28745, 'the $sample stage specification must be an object'],
    ['a string size', { size: '3' }, 28746, 'size argument to $sample must be a number'],
    ['a null size', { size: null }, 28746, 'size argument to $sample must be a number'],
    ['no size', {}, 28749, '$sample stage must specify a size'],
    ['an unknown option', { size: 3, extra: 1 }, 28748, 'unrecognized option to $sample: extra'],
    ['an unknown option wins over a negative size', { size: -1, extra: 1 }, 28748, 'unrecognized option to $sample: extra'],
    ['a bad type wins over an unknown option', { size: 'x', extra: 1 }, 28746, 'size argument to $sample must be a number'],
    ['zero', { size: 0 }, 28747, 'size argument to $sample must be a positive integer'],
    ['negative', { size: Long.fromNumber(-100) }, 28747, 'size argument to $sample must be a positive integer'],
    ['below one once truncated', { size: new Double(0.5) }, 28747, 'size argument to $sample must be a positive integer'],
    ['NaN', { size: new Double(NaN) }, 28747, 'size argument to $sample must be a positive integer'],
    ['a Decimal128 half', { size: Decimal128.fromString('0.5') }, 28747, 'size argument to $sample must be a positive integer'],
  ];
  for (const [name, spec, code, message] of cases) {
    it(name, () => expectCommandError(() => runPipeline([{ $sample: spec }], []), code, message));
  }
});
