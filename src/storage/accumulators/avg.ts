/**
 * `$avg` (accumulator_avg.cpp): the mean of the numeric values, a Double (a Decimal128 while a
 * Decimal128 is among them); null without numeric input.
 */
import { decodeDecimal } from '../values/decimal.js';
import { divideDecimal, doubleOf } from '../values/numeric.js';
import { SumState } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class AvgState implements Accumulator {
  private readonly sum: SumState;
  constructor(integersAsDoubles: boolean) {
    this.sum = new SumState(integersAsDoubles);
  }
  add(v: unknown): void {
    this.sum.add(v);
  }
  remove(v: unknown): void {
    this.sum.remove(v);
  }
  result(): unknown {
    const n = this.sum.count;
    if (n === 0) return null;
    if (this.sum.isDecimal) {
      // A zero mean is 0 (mongod's recorded cases: the mean of MAX and -MAX, of -0).
      const total = this.sum.decimalTotal();
      return decodeDecimal(total).kind === 'nan' ? total : divideDecimal(total, n);
    }
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
  create: (_collator, _removable, options) => new AvgState(options?.expression === true),
};
