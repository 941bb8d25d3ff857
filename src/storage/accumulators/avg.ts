/**
 * `$avg` (accumulator_avg.cpp): the mean of the numeric values, a Double (a Decimal128 while a
 * Decimal128 is among them); null without numeric input.
 */
import { divideDecimal, doubleOf } from '../values/numeric.js';
import { SumState } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class AvgState implements Accumulator {
  private readonly sum = new SumState();
  add(v: unknown): void {
    this.sum.add(v);
  }
  remove(v: unknown): void {
    this.sum.remove(v);
  }
  result(): unknown {
    const n = this.sum.count;
    if (n === 0) return null;
    if (this.sum.isDecimal) return divideDecimal(this.sum.decimalTotal(), n);
    return doubleOf(this.sum.totalAsDouble / n);
  }
  reset(): void {
    this.sum.reset();
  }
}

/** `$avg`. */
export const avg: AccumulatorDefinition = {
  name: '$avg',
  argument: 'expression',
  create: () => new AvgState(),
};
