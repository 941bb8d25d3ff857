/** `$arrayElemAt`, `$first`, `$last` as array expressions (ExpressionArrayElemAt/First/Last). */
import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long } from '../../../../src/bson/library.js';
import { errorRows, evaluate, valueRows } from '../helpers.js';

const DOC = { arr: [10, 'b', { c: 1 }], empty: [], n: null, i: 5 };

describe('$arrayElemAt', () => {
  valueRows(
    [
      ['index 0', { $arrayElemAt: ['$arr', 0] }, 10],
      ['last by -1', { $arrayElemAt: ['$arr', -1] }, { c: 1 }],
      ['-length is the first', { $arrayElemAt: ['$arr', -3] }, 10],
      ['an integral double index', { $arrayElemAt: ['$arr', new Double(1)] }, 'b'],
      ['an Int64 index', { $arrayElemAt: ['$arr', Long.fromNumber(2)] }, { c: 1 }],
      ['an integral Decimal128 index', { $arrayElemAt: ['$arr', Decimal128.fromString('1.0')] }, 'b'],
      ['a null array is null', { $arrayElemAt: ['$n', 0] }, null],
      ['a missing array is null', { $arrayElemAt: ['$nope', 0] }, null],
      ['a null index is null', { $arrayElemAt: ['$arr', null] }, null],
      ['a null array with a bad index is still null', { $arrayElemAt: ['$n', 'x'] }, null],
    ],
    DOC,
  );
  it('out of range (either end) is missing', () => {
    expect([evaluate({ $arrayElemAt: ['$arr', 3] }, DOC), evaluate({ $arrayElemAt: ['$arr', -4] }, DOC)]).toEqual([undefined, undefined]);
  });
  errorRows(
    [
      ['a non-array', { $arrayElemAt: ['$i', 0] }, 28689, "$arrayElemAt's first argument must be an array, but is int"],
      ['a string index', { $arrayElemAt: ['$arr', 'x'] }, 28690, "$arrayElemAt's second argument must be a numeric value, but is string"],
      ['a fractional index', { $arrayElemAt: ['$arr', 1.5] }, 28691, "$arrayElemAt's second argument must be representable as a 32-bit integer: 1.5"],
      ['an index past Int32', { $arrayElemAt: ['$arr', Long.fromNumber(2147483648)] }, 28691, "$arrayElemAt's second argument must be representable as a 32-bit integer: 2.14748e+09"],
      ['arity', { $arrayElemAt: ['$arr'] }, 16020, 'Expression $arrayElemAt takes exactly 2 arguments. 1 were passed in.'],
    ],
    DOC,
  );
});

describe('$first and $last', () => {
  valueRows(
    [
      ['$first', { $first: '$arr' }, 10],
      ['$last', { $last: '$arr' }, { c: 1 }],
      ['$first of a one-element argument list', { $first: [[7, 8]] }, 7],
      ['$first of null is null', { $first: '$n' }, null],
      ['$last of missing is null', { $last: '$nope' }, null],
    ],
    DOC,
  );
  it('of an empty array is missing', () => {
    expect([evaluate({ $first: '$empty' }, DOC), evaluate({ $last: '$empty' }, DOC)]).toEqual([undefined, undefined]);
  });
  errorRows(
    [
      ['$first of a number', { $first: '$i' }, 28689, "$first's argument must be an array, but is int"],
      ['$last of a string', { $last: 'abc' }, 28689, "$last's argument must be an array, but is string"],
      ['$first with two arguments', { $first: [[1], [2]] }, 16020, 'Expression $first takes exactly 1 arguments. 2 were passed in.'],
    ],
    DOC,
  );
});
