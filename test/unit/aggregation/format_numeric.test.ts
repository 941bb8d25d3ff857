import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long, ObjectId, type Document } from '../../../src/bson/library.js';
import { docValueToString, formatDoubleNice, formatG } from '../../../src/storage/values/format.js';
import { divideDecimal, modDecimal, subtractDecimal } from '../../../src/storage/values/numeric.js';
import { ExpressionContext } from '../../../src/storage/expression/context.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { MISSING } from '../../../src/storage/values/missing.js';
import { expectExact } from './helpers.js';

describe('number formatting', () => {
  const g: Array<[number, number, string]> = [
    [1.5, 6, '1.5'],
    [2, 6, '2'],
    [0.1 + 0.2, 6, '0.3'],
    [1e20, 6, '1e+20'],
    [1e-5, 6, '1e-05'],
    [123456789, 6, '1.23457e+08'],
    [0.1 + 0.2, 16, '0.3'],
    [0.1 + 0.2, 17, '0.30000000000000004'],
    [-0, 6, '-0'],
    [NaN, 6, 'nan'],
    [-Infinity, 6, '-inf'],
  ];
  for (const [x, p, expected] of g) {
    it(`%.${p}g of ${x}`, () => expect(formatG(x, p)).toBe(expected));
  }
  const nice: Array<[number, string]> = [
    [2, '2.0'],
    [1.5, '1.5'],
    [NaN, 'nan.0'],
    [Infinity, 'inf.0'],
    [1e20, '1e+20.0'],
    [-0, '-0.0'],
  ];
  for (const [x, expected] of nice) {
    it(`appendDoubleNice of ${x}`, () => expect(formatDoubleNice(x)).toBe(expected));
  }
});

describe('Value rendering (aggregation run-time messages)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing', MISSING, 'MISSING'],
    ['a document', { _id: 1, a: { b: 'x' } } as Document, '{_id: 1, a: {b: "x"}}'],
    ['an array', [1, 2.5, null], '[1, 2.5, null]'],
    ['an integral double', new Double(2), '2'],
    ['a long', Long.fromNumber(7), '7'],
    ['a decimal', Decimal128.fromString('1.50'), '1.50'],
    ['an ObjectId (bare hex)', new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1'), '65a1b2c3d4e5f6a7b8c9d0e1'],
    ['an empty document', {}, '{}'],
  ];
  for (const [name, v, expected] of cases) {
    it(name, () => expect(docValueToString(v)).toBe(expected));
  }
});

describe('Decimal128 arithmetic helpers', () => {
  it('subtracts, converting a double with 15 significant digits as mongod does', () =>
    expectExact(subtractDecimal(Decimal128.fromString('0.3'), 0.1), Decimal128.fromString('0.200000000000000')));
  it('divides to the preferred exponent when exact', () => expectExact(divideDecimal(Decimal128.fromString('10'), 4), Decimal128.fromString('2.5')));
  it('rounds an inexact quotient to 34 digits', () =>
    expectExact(divideDecimal(Decimal128.fromString('1'), 3), Decimal128.fromString('0.3333333333333333333333333333333333')));
  it('computes a remainder with the dividend sign', () => expectExact(modDecimal(Decimal128.fromString('-7.5'), 2), Decimal128.fromString('-1.5')));
  it('reports a zero divisor as null', () => expect(modDecimal(Decimal128.fromString('1'), 0)).toBe(null));
});

describe('$expr', () => {
  it('compiles to a predicate with aggregation truthiness', () => {
    const p = new ExpressionContext({ now: new Date(0) }).predicate({ $gt: ['$a', '$b'] });
    expect([p({ a: 2, b: 1 }), p({ a: 1, b: 2 }), p({})]).toEqual([true, false, false]);
  });
  it('works inside $match', () => {
    const out = Array.from(
      compilePipeline([{ $match: { $expr: { $eq: ['$a', '$b'] } } }], newPipelineContext({ now: new Date(0) }))([
        { _id: 1, a: 1, b: 1 },
        { _id: 2, a: 1, b: 2 },
      ]),
    );
    expectExact(out, [{ _id: 1, a: 1, b: 1 }]);
  });
});
