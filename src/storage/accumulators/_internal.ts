/**
 * What the accumulators of this folder share: the running sum (`$sum`, `$avg`, `$count`), the
 * queue of a removable state's values.
 */
import type { Decimal128 } from '../../bson/library.js';
import { decodeDecimal, encodeDecimal, type DecimalParts } from '../values/decimal.js';
import { addParts, doubleOf, fitsLong, intOrLong, longOf, negateParts, numKind, toBigInt, toDecimalParts, type NumKind } from '../values/numeric.js';
import type { Collator } from '../values/collator.js';
import { compareValues } from '../values/compare.js';
import { isNullish, MISSING } from '../values/missing.js';
import type { Accumulator } from './types.js';

/** The values of a removable state, oldest first: added at the end, removed from the front. */
export class ValueQueue {
  private items: unknown[] = [];
  private head = 0;

  push(v: unknown): void {
    this.items.push(v);
  }

  /** Drops the oldest value. */
  shift(): void {
    if (this.head >= this.items.length) return;
    this.items[this.head++] = undefined;
    // Compact once half the array is gone.
    if (this.head > 32 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.items.length - this.head;
  }

  /** The oldest value (the queue must not be empty). */
  first(): unknown {
    return this.items[this.head];
  }

  /** The newest value (the queue must not be empty). */
  last(): unknown {
    return this.items[this.items.length - 1];
  }

  /** The values, oldest first. */
  values(): unknown[] {
    return this.items.slice(this.head);
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

/** The error of `remove` on a state made for `$group` (`create` without `removable`). */
export function notRemovable(name: string): never {
  throw new Error(`the ${name} accumulator was not created removable`);
}

const ZERO: DecimalParts = { kind: 'finite', negative: false, coefficient: 0n, exponent: 0 };

/**
 * Running `$sum` with mongod's type rules (accumulator_sum.cpp, window_function_sum.cpp):
 * non-numbers are ignored; Int32 totals stay Int32 until they overflow (then Int64), any Int64
 * makes an Int64 (Double past Int64), any Double a Double (compensated summation, like mongod's
 * DoubleDoubleSummation), any Decimal128 a Decimal128. The result's type follows the widest kind
 * still in the total, so removing the last Double gives an integer total again, as mongod's
 * removable sum does.
 */
export class SumState implements Accumulator {
  private ints = 0n;
  private sum = 0;
  private compensation = 0;
  private nans = 0;
  private positiveInfinities = 0;
  private negativeInfinities = 0;
  /** The sum of the Decimal128s (the first one as it is: its exponent kept), null for none. */
  private decimal: DecimalParts | null = null;
  /** How many values of each numeric kind are in the total. */
  private readonly counts: Record<NumKind, number> = { int: 0, long: 0, double: 0, decimal: 0 };
  /** How many numeric values are in the total. */
  count = 0;

  add(v: unknown): void {
    this.apply(v, 1);
  }

  remove(v: unknown): void {
    this.apply(v, -1);
  }

  private apply(v: unknown, sign: 1 | -1): void {
    const k = numKind(v);
    if (k === null) return;
    this.count += sign;
    this.counts[k] += sign;
    switch (k) {
      case 'int':
      case 'long':
        this.ints += sign === 1 ? toBigInt(v) : -toBigInt(v);
        return;
      case 'double':
        this.addDouble(typeof v === 'number' ? v : (v as { value: number }).value, sign);
        return;
      case 'decimal': {
        const parts = decodeDecimal(v as Decimal128);
        if (this.counts.decimal === 0) this.decimal = null;
        else this.decimal = this.decimal === null ? parts : addParts(this.decimal, sign === 1 ? parts : negateParts(parts));
      }
    }
  }

  private addDouble(x: number, sign: 1 | -1): void {
    if (Number.isNaN(x)) this.nans += sign;
    else if (x === Infinity) this.positiveInfinities += sign;
    else if (x === -Infinity) this.negativeInfinities += sign;
    else {
      const y = sign * x;
      const t = this.sum + y;
      if (Math.abs(this.sum) >= Math.abs(y)) this.compensation += this.sum - t + y;
      else this.compensation += y - t + this.sum;
      this.sum = t;
    }
  }

  /** The non-finite part of the doubles: NaN, ±Infinity, or 0 when every double was finite. */
  private special(): number {
    if (this.nans > 0 || (this.positiveInfinities > 0 && this.negativeInfinities > 0)) return NaN;
    if (this.positiveInfinities > 0) return Infinity;
    if (this.negativeInfinities > 0) return -Infinity;
    return 0;
  }

  private doubleTotal(): number {
    return Number(this.ints) + (this.sum + this.compensation) + this.special();
  }

  /** The total as a decimal (all inputs converted). */
  decimalTotal(): Decimal128 {
    let parts = this.decimal ?? ZERO;
    if (this.ints !== 0n) parts = addParts(parts, toDecimalParts(longOf(this.ints)));
    const doubles = this.sum + this.compensation + this.special();
    if (doubles !== 0 || Number.isNaN(doubles)) parts = addParts(parts, toDecimalParts(doubles));
    return encodeDecimal(parts);
  }

  /** The widest numeric kind in the total (Int32 for none). */
  private kind(): NumKind {
    const c = this.counts;
    return c.decimal > 0 ? 'decimal' : c.double > 0 ? 'double' : c.long > 0 ? 'long' : 'int';
  }

  result(): unknown {
    switch (this.kind()) {
      case 'int':
        if (fitsLong(this.ints)) return intOrLong(this.ints);
        return doubleOf(this.doubleTotal());
      case 'long':
        if (fitsLong(this.ints)) return longOf(this.ints);
        return doubleOf(this.doubleTotal());
      case 'double':
        return doubleOf(this.doubleTotal());
      default:
        return this.decimalTotal();
    }
  }

  reset(): void {
    this.ints = 0n;
    this.sum = 0;
    this.compensation = 0;
    this.nans = 0;
    this.positiveInfinities = 0;
    this.negativeInfinities = 0;
    this.decimal = null;
    this.counts.int = this.counts.long = this.counts.double = this.counts.decimal = 0;
    this.count = 0;
  }

  /** True while a Decimal128 is in the total. */
  get isDecimal(): boolean {
    return this.counts.decimal > 0;
  }

  /** The total as a JS double. */
  get totalAsDouble(): number {
    return this.doubleTotal();
  }
}

/**
 * `$min` and `$max` (accumulator_min_max.cpp): BSON order, strings under the collation, null
 * and missing ignored; null for no value. A removable state keeps its values to find the next
 * extreme when the current one leaves.
 */
export class MinMaxState implements Accumulator {
  private best: unknown = MISSING;
  private readonly kept: ValueQueue | null;

  constructor(
    private readonly sign: 1 | -1,
    private readonly collator: Collator | null,
    removable: boolean,
  ) {
    this.kept = removable ? new ValueQueue() : null;
  }

  add(v: unknown): void {
    if (isNullish(v)) return;
    this.kept?.push(v);
    if (this.best === MISSING || compareValues(v, this.best, this.collator) * this.sign > 0) this.best = v;
  }

  remove(v: unknown): void {
    if (isNullish(v)) return;
    const kept = this.kept ?? notRemovable(this.sign > 0 ? '$max' : '$min');
    kept.shift();
    if (compareValues(v, this.best, this.collator) !== 0) return;
    this.best = MISSING;
    for (const x of kept.values()) {
      if (this.best === MISSING || compareValues(x, this.best, this.collator) * this.sign > 0) this.best = x;
    }
  }

  result(): unknown {
    return this.best === MISSING ? null : this.best;
  }

  reset(): void {
    this.best = MISSING;
    this.kept?.clear();
  }
}
