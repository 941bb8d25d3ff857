/**
 * `$add` and `$subtract` with a Date: a fractional millisecond offset is rounded half away from
 * zero before it is applied, NaN and the infinities overflow (15), as the recorded mongod 8.2
 * conformance cases show.
 */
import { describe, it } from 'vitest';
import { Decimal128, Long, type Document } from '../../../../src/bson/library.js';
import { expectCommandError } from '../../aggregation/helpers.js';
import { evaluate, valueRows } from '../helpers.js';

const T = Date.UTC(2026, 0, 1);
const DOC: Document = { _id: 1, d: new Date(T) };

describe('$add with a date', () => {
  valueRows([
    ['an Int32 offset', { $add: ['$d', 5] }, new Date(T + 5)],
    ['-0.5 ms rounds away from zero to -1', { $add: ['$d', -0.5] }, new Date(T - 1)],
    ['0.5 ms rounds away from zero to 1', { $add: ['$d', 0.5] }, new Date(T + 1)],
    ['a decimal 1.5 ms rounds to 2', { $add: ['$d', Decimal128.fromString('1.5')] }, new Date(T + 2)],
  ], DOC);
  it('NaN overflows', () => expectCommandError(() => evaluate({ $add: ['$d', NaN] }, DOC), 15, 'date overflow in $add'));
  it('two dates', () =>
    expectCommandError(() => evaluate({ $add: ['$d', '$d'] }, DOC), 16612, 'only one date allowed in an $add expression'));
});

describe('$subtract with a date', () => {
  valueRows([
    ['2.5 ms rounds up to 3', { $subtract: ['$d', 2.5] }, new Date(T - 3)],
    ['-2.5 ms rounds down to -3', { $subtract: ['$d', -2.5] }, new Date(T + 3)],
    ['a decimal 1.5 ms rounds to 2', { $subtract: ['$d', Decimal128.fromString('1.5')] }, new Date(T - 2)],
    ['an Int64 offset', { $subtract: ['$d', Long.fromNumber(1000)] }, new Date(T - 1000)],
    ['a date minus a date is an Int64', { $subtract: ['$d', new Date(T - 7)] }, Long.fromNumber(7)],
  ], DOC);
  it('NaN overflows', () => expectCommandError(() => evaluate({ $subtract: ['$d', NaN] }, DOC), 15, 'date overflow in $subtract'));
  it('Infinity overflows', () =>
    expectCommandError(() => evaluate({ $subtract: ['$d', Infinity] }, DOC), 15, 'date overflow in $subtract'));
  it('a decimal NaN overflows', () =>
    expectCommandError(() => evaluate({ $subtract: ['$d', Decimal128.fromString('NaN')] }, DOC), 15, 'date overflow in $subtract'));
  it('a string from a date', () =>
    expectCommandError(() => evaluate({ $subtract: ['$d', 'x'] }, DOC), 14, "can't $subtract string from Date"));
});
