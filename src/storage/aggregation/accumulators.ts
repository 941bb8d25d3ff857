/**
 * `$group` accumulators, one small state machine per kind (mongo/src/mongo/db/pipeline/
 * accumulator_*.cpp). The same states back the `$sum`/`$avg`/`$min`/`$max` expressions.
 *
 * - `$sum`: non-numbers are ignored; Int32 totals stay Int32 until they overflow (then Int64),
 *   any Int64 makes an Int64 (Double past Int64), any Double a Double (compensated summation,
 *   like mongod's DoubleDoubleSummation), any Decimal128 a Decimal128.
 * - `$avg`: a Double (Decimal128 when a decimal was seen); null without numeric input.
 * - `$min`/`$max`: BSON order, null and missing ignored.
 * - `$first`/`$last`: the raw value (missing becomes null in the `$group` output).
 * - `$push`/`$addToSet`: missing values skipped; `$addToSet` keeps the first of equal values.
 *
 * `$min`, `$max` and `$addToSet` compare strings under the command's collation.
 */
import type { Collator } from '../values/collator.js';
import { compareValues } from '../values/compare.js';
import { decodeDecimal, encodeDecimal, type DecimalParts } from '../values/decimal.js';
import { collationKeyString } from '../values/key_string.js';
import { addParts, toDecimalParts, divideDecimal, doubleOf, fitsLong, intOrLong, longOf, numKind, toBigInt, widest, type NumKind } from '../values/numeric.js';
import type { Decimal128 } from '../../bson/library.js';
import { MISSING, isNullish } from './value.js';

/** One accumulator's running state. */
export interface Accumulator {
  /** Feeds one evaluated value (possibly MISSING). */
  process(v: unknown): void;
  /** The accumulated result (MISSING when there is none). */
  result(): unknown;
}

/** Running `$sum` with mongod's type rules. */
export class SumState implements Accumulator {
  private kind: NumKind = 'int';
  private ints = 0n;
  private sum = 0;
  private compensation = 0;
  private special = 0;
  private decimal: DecimalParts | null = null;
  /** How many numeric values were added. */
  count = 0;

  /** Adds a value; non-numbers are ignored. */
  process(v: unknown): void {
    const k = numKind(v);
    if (k === null) return;
    this.count++;
    this.kind = widest(this.kind, k);
    switch (k) {
      case 'int':
      case 'long':
        this.ints += toBigInt(v);
        return;
      case 'double':
        this.addDouble(typeof v === 'number' ? v : (v as { value: number }).value);
        return;
      case 'decimal': {
        const parts = decodeDecimal(v as Decimal128);
        this.decimal = this.decimal === null ? parts : addParts(this.decimal, parts);
      }
    }
  }

  private addDouble(x: number): void {
    if (!Number.isFinite(x)) {
      this.special += x;
      return;
    }
    const t = this.sum + x;
    if (Math.abs(this.sum) >= Math.abs(x)) this.compensation += this.sum - t + x;
    else this.compensation += x - t + this.sum;
    this.sum = t;
  }

  private doubleTotal(): number {
    return Number(this.ints) + (this.sum + this.compensation) + this.special;
  }

  /** The total as a decimal (all inputs converted). */
  decimalTotal(): Decimal128 {
    let parts: DecimalParts = { kind: 'finite', negative: false, coefficient: 0n, exponent: 0 };
    if (this.decimal !== null) parts = this.decimal;
    if (this.ints !== 0n) parts = addParts(parts, toDecimalParts(longOf(this.ints)));
    const doubles = this.sum + this.compensation + this.special;
    if (doubles !== 0 || Number.isNaN(doubles)) parts = addParts(parts, toDecimalParts(doubles));
    return encodeDecimal(parts);
  }

  /** The total with mongod's result type. */
  result(): unknown {
    switch (this.kind) {
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

  /** True once a Decimal128 was added. */
  get isDecimal(): boolean {
    return this.kind === 'decimal';
  }

  /** The total as a JS double. */
  get totalAsDouble(): number {
    return this.doubleTotal();
  }
}

class AvgState implements Accumulator {
  private readonly sum = new SumState();
  process(v: unknown): void {
    this.sum.process(v);
  }
  result(): unknown {
    const n = this.sum.count;
    if (n === 0) return null;
    if (this.sum.isDecimal) return divideDecimal(this.sum.decimalTotal(), n);
    return doubleOf(this.sum.totalAsDouble / n);
  }
}

class MinMaxState implements Accumulator {
  private best: unknown = MISSING;
  constructor(
    private readonly sign: 1 | -1,
    private readonly collator: Collator | null,
  ) {}
  process(v: unknown): void {
    if (isNullish(v)) return;
    if (this.best === MISSING || compareValues(v, this.best, this.collator) * this.sign > 0) this.best = v;
  }
  result(): unknown {
    return this.best === MISSING ? null : this.best;
  }
}

class FirstState implements Accumulator {
  private seen = false;
  private value: unknown = MISSING;
  process(v: unknown): void {
    if (this.seen) return;
    this.seen = true;
    this.value = v;
  }
  result(): unknown {
    return this.value;
  }
}

class LastState implements Accumulator {
  private value: unknown = MISSING;
  process(v: unknown): void {
    this.value = v;
  }
  result(): unknown {
    return this.value;
  }
}

class PushState implements Accumulator {
  private readonly values: unknown[] = [];
  process(v: unknown): void {
    if (v !== MISSING) this.values.push(v);
  }
  result(): unknown {
    return this.values;
  }
}

class AddToSetState implements Accumulator {
  private readonly values: unknown[] = [];
  private readonly keys = new Set<string>();
  constructor(private readonly collator: Collator | null) {}
  process(v: unknown): void {
    if (v === MISSING) return;
    const key = collationKeyString(v, this.collator);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.values.push(v);
  }
  result(): unknown {
    return this.values;
  }
}

/** The accumulators `$group` supports, by operator name (each made under a collation, or null). */
export const ACCUMULATORS: Readonly<Record<string, (collator: Collator | null) => Accumulator>> = {
  $sum: () => new SumState(),
  $avg: () => new AvgState(),
  $min: (collator) => new MinMaxState(-1, collator),
  $max: (collator) => new MinMaxState(1, collator),
  $first: () => new FirstState(),
  $last: () => new LastState(),
  $push: () => new PushState(),
  $addToSet: (collator) => new AddToSetState(collator),
};

/** Accumulators mongod knows that Mayfly does not implement yet (answered with 238). */
export const UNSUPPORTED_ACCUMULATORS: ReadonlySet<string> = new Set([
  '$accumulator',
  '$bottom',
  '$bottomN',
  '$concatArrays',
  '$covariancePop',
  '$covarianceSamp',
  '$firstN',
  '$lastN',
  '$maxN',
  '$median',
  '$mergeObjects',
  '$minN',
  '$percentile',
  '$setUnion',
  '$stdDevPop',
  '$stdDevSamp',
  '$top',
  '$topN',
]);
