/**
 * What the accumulators of this folder share: the running sum (`$sum`, `$avg`, `$count`), the
 * queue of a removable state's values.
 */
import type { Decimal128 } from '../../bson/library.js';
import {
  decodeDecimal,
  doubleToExactParts,
  encodeDecimal,
  normaliseParts,
  roundParts,
  type DecimalParts,
} from '../values/decimal.js';
import { bsonSize } from '../../bson/encode.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { docValueToString, formatElement, formatValue } from '../values/format.js';
import { isDocument } from '../values/paths.js';
import {
  addParts,
  doubleOf,
  fitsLong,
  integerOf,
  intOrLong,
  isNumber,
  longOf,
  negateParts,
  numKind,
  toBigInt,
  toDecimalParts,
  toDouble,
  type NumKind,
} from '../values/numeric.js';
import type { Collator } from '../values/collator.js';
import { compareValues } from '../values/compare.js';
import { isNullish, MISSING } from '../values/missing.js';
import type { Accumulator, AccumulatorArguments, StateOptions } from './types.js';

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

/** `p` as the Decimal128 it rounds to (34 digits, overflow to Infinity). */
function roundToDecimal128(p: DecimalParts): DecimalParts {
  return decodeDecimal(encodeDecimal(p));
}

/**
 * Running `$sum` with mongod's type rules (accumulator_sum.cpp, window_function_sum.cpp):
 * non-numbers are ignored; Int32 totals stay Int32 until they overflow (then Int64), any Int64
 * makes an Int64 (Double past Int64), any Double a Double (compensated summation, like mongod's
 * DoubleDoubleSummation), any Decimal128 a Decimal128. The result's type follows the widest kind
 * still in the total, so removing the last Double gives an integer total again, as mongod's
 * removable sum does.
 */
export class SumState implements Accumulator {
  /** The integers' total beyond `smallInts` (BigInt arithmetic only once a JS number would round). */
  private ints = 0n;
  /** The Int32 values' running total while it is a safe integer (the common case, without BigInt). */
  private smallInts = 0;
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
  /**
   * The Decimal128 NaN that made the decimal total NaN, as it was (its sign kept: mongod's
   * decimal addition returns its NaN operand).
   */
  private nanValue: Decimal128 | null = null;

  /** `integersAsDoubles`: Int32/Int64 values are summed as Doubles (`$avg` does). */
  constructor(private readonly integersAsDoubles = false) {}

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
        if (this.integersAsDoubles) this.addDouble(Number(toBigInt(v)), sign);
        else if (typeof v === 'number') {
          const t = this.smallInts + (sign === 1 ? v : -v);
          if (Number.isSafeInteger(t)) this.smallInts = t;
          else {
            this.ints += BigInt(this.smallInts) + BigInt(sign === 1 ? v : -v);
            this.smallInts = 0;
          }
        } else this.ints += sign === 1 ? toBigInt(v) : -toBigInt(v);
        return;
      case 'double':
        this.addDouble(typeof v === 'number' ? v : (v as { value: number }).value, sign);
        return;
      case 'decimal': {
        const parts = decodeDecimal(v as Decimal128);
        if (parts.kind === 'nan' && sign === 1 && this.decimal?.kind !== 'nan') this.nanValue = v as Decimal128;
        if (this.counts.decimal === 0) {
          this.decimal = null;
          this.nanValue = null;
        }
        // Each addition rounds to a Decimal128, as mongod's running decimal total does (an
        // overflow to Infinity stays); the total starts from 0, so -0 alone sums to 0.
        else this.decimal = roundToDecimal128(addParts(this.decimal ?? ZERO, sign === 1 ? parts : negateParts(parts)));
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
      if (!Number.isFinite(t)) {
        // The running double overflowed: mongod's total stays infinite from then on.
        this.sum = t;
        return;
      }
      if (Math.abs(this.sum) >= Math.abs(y)) this.compensation += this.sum - t + y;
      else this.compensation += y - t + this.sum;
      this.sum = t;
    }
  }

  /** The exact total of the integers. */
  private intTotal(): bigint {
    return this.smallInts === 0 ? this.ints : this.ints + BigInt(this.smallInts);
  }

  /** The non-finite part of the doubles: NaN, ±Infinity, or 0 when every double was finite. */
  private special(): number {
    if (this.nans > 0 || (this.positiveInfinities > 0 && this.negativeInfinities > 0)) return NaN;
    if (this.positiveInfinities > 0) return Infinity;
    if (this.negativeInfinities > 0) return -Infinity;
    return 0;
  }

  private doubleTotal(): number {
    const doubles = Number.isFinite(this.sum) ? this.sum + this.compensation : this.sum;
    return Number(this.intTotal()) + doubles + this.special();
  }

  /**
   * The total as a decimal: the integers exactly, the doubles' total converted exactly (34
   * digits, no trailing zeros: 2.5 is 2.5, 1.57 is 1.570000000000000062172489379008766).
   */
  decimalTotal(): Decimal128 {
    let parts = this.decimal ?? ZERO;
    if (this.intTotal() !== 0n) {
      const b = this.intTotal();
      parts = addParts(parts, { kind: 'finite', negative: b < 0n, coefficient: b < 0n ? -b : b, exponent: 0 });
    }
    const doubles = (Number.isFinite(this.sum) ? this.sum + this.compensation : this.sum) + this.special();
    // Added even when 0, as mongod adds its non-decimal total: a zero total takes exponent 0
    // (MAX + -MAX is 0, not 0E+6111; -0 is 0), a smaller exponent stays (0E-6176).
    parts = addParts(parts, roundParts(normaliseParts(doubleToExactParts(doubles)), 34));
    if (parts.kind === 'nan' && this.decimal?.kind === 'nan' && this.nanValue !== null) return this.nanValue;
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
        if (this.ints === 0n && this.smallInts >= -2147483648 && this.smallInts <= 2147483647) return this.smallInts;
        if (fitsLong(this.intTotal())) return intOrLong(this.intTotal());
        return doubleOf(this.doubleTotal());
      case 'long':
        if (fitsLong(this.intTotal())) return longOf(this.intTotal());
        return doubleOf(this.doubleTotal());
      case 'double':
        return doubleOf(this.doubleTotal());
      default:
        return this.decimalTotal();
    }
  }

  reset(): void {
    this.ints = 0n;
    this.smallInts = 0;
    this.sum = 0;
    this.compensation = 0;
    this.nans = 0;
    this.positiveInfinities = 0;
    this.negativeInfinities = 0;
    this.decimal = null;
    this.nanValue = null;
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

/**
 * mongod 8.2's `$group` (SBE) renders a MinKey or MaxKey result of `$first`, `$last`, `$min`,
 * `$max` (and the elements of `$addToSet`) as the document `{"": MinKey}` when another stage
 * follows it; the recorded cases show it, and its expressions do not.
 */
export function keyBoundAsDocument(v: unknown): unknown {
  const t = v !== null && typeof v === 'object' ? bsonTypeOf(v) : null;
  return t === 'minKey' || t === 'maxKey' ? { '': v } : v;
}

/** `AccumulatorN::validateN`: `n` must be a positive integral number (a long). */
export function validateN(input: unknown): number {
  if (!isNumber(input)) {
    throw new CommandError(5787902, `Value for 'n' must be of integral type, but found ${docValueToString(input)}`);
  }
  const d = toDouble(input);
  const n = integerOf(input, 'truncate');
  if (n === null || n === undefined || Number(n) !== d) {
    throw new CommandError(5787903, `Value for 'n' must be of integral type, but found ${docValueToString(input)}`);
  }
  if (n <= 0n) throw new CommandError(5787908, `'n' must be greater than 0, found ${n}`);
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

/**
 * The `{n, input}` argument of `$firstN`, `$lastN`, `$maxN`, `$minN` (AccumulatorN::parseArgs):
 * an object (`notObjectCode` otherwise) of exactly those fields.
 */
export function parseNInput(spec: unknown, name: string, notObjectCode: number): AccumulatorArguments {
  if (!isDocument(spec)) {
    throw new CommandError(notObjectCode, `specification must be an object; found ${formatElement(name, spec)}`);
  }
  let n: unknown;
  let input: unknown;
  let hasN = false;
  let hasInput = false;
  for (const field of Object.keys(spec)) {
    if (field === 'input') {
      input = spec[field];
      hasInput = true;
    } else if (field === 'n') {
      n = spec[field];
      hasN = true;
    } else {
      throw new CommandError(5787901, `Unknown argument for 'n' operator: ${field}`);
    }
  }
  if (!hasN) throw new CommandError(5787906, "Missing value for 'n'");
  if (!hasInput) throw new CommandError(5787907, "Missing value for 'input'");
  return { input, n };
}

/**
 * The `{n, output, sortBy}` argument of `$topN`, `$bottomN` (`single`: `$top`, `$bottom`,
 * without `n`) (accumulatorNParseArgs).
 */
export function parseTopBottomArguments(spec: unknown, name: string, single: boolean): AccumulatorArguments {
  if (!isDocument(spec)) {
    throw new CommandError(5788001, `specification must be an object; found ${formatElement(name, spec)}`);
  }
  let n: unknown = 1;
  let output: unknown;
  let sortBy: unknown;
  let hasN = single;
  let hasOutput = false;
  let hasSortBy = false;
  for (const field of Object.keys(spec)) {
    const v = spec[field];
    if (!single && field === 'n') {
      n = v;
      hasN = true;
    } else if (field === 'output') {
      output = v;
      hasOutput = true;
    } else if (field === 'sortBy') {
      if (!isDocument(v)) {
        throw new CommandError(10065, `invalid parameter: expected an object (sortBy)`);
      }
      sortBy = v;
      hasSortBy = true;
    } else {
      throw new CommandError(5788002, `Unknown argument to ${name} '${field}'`);
    }
  }
  if (!hasN) throw new CommandError(5788003, "Missing value for 'n'");
  if (!hasOutput) throw new CommandError(5788004, "Missing value for 'output'");
  if (!hasSortBy) throw new CommandError(5788005, "Missing value for 'sortBy'");
  return single ? { input: output, sortBy: sortBy as Record<string, unknown> } : { input: output, n, sortBy: sortBy as Record<string, unknown> };
}

/** The `n` a state was made with, checked (`n` of 1 when the definition is used without one). */
export function nOf(options: StateOptions | undefined): number {
  if (options === undefined || options.n === undefined) return 1;
  if (options.grouping !== true) return validateN(options.n);
  try {
    return validateN(options.n);
  } catch {
    throw new CommandError(7548606, `Value for 'n' must be a positive integer, but found ${docValueToString(options.n)}`);
  }
}

/**
 * The error of `$concatArrays` and `$setUnion` for an input that is not an array (missing
 * inputs are skipped before).
 */
export function requireArrayInput(name: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) {
    throw new CommandError(
      'TypeMismatch',
      `${name} requires array inputs, but input ${docValueToString(v)} is of type ${bsonTypeOf(v)}`,
    );
  }
  return v;
}

/**
 * The running moments of `$stdDevPop`/`$stdDevSamp` (accumulator_std_dev.cpp, Welford's
 * method): numeric values only (others ignored); a Double result, null without enough values.
 */
export class StdDevState implements Accumulator {
  private count = 0;
  private mean = 0;
  private m2 = 0;
  constructor(private readonly sample: boolean) {}
  add(v: unknown): void {
    this.apply(v, 1);
  }
  remove(v: unknown): void {
    this.apply(v, -1);
  }
  private apply(v: unknown, sign: 1 | -1): void {
    if (numKind(v) === null) return;
    const x = toDouble(v);
    if (sign === 1) {
      this.count++;
      const delta = x - this.mean;
      if (delta !== 0) {
        this.mean += delta / this.count;
        this.m2 += delta * (x - this.mean);
      }
    } else {
      if (this.count <= 1) {
        this.count = 0;
        this.mean = 0;
        this.m2 = 0;
        return;
      }
      const delta = x - this.mean;
      this.count--;
      this.mean -= delta / this.count;
      this.m2 -= delta * (x - this.mean);
    }
  }
  result(): unknown {
    const n = this.count - (this.sample ? 1 : 0);
    if (this.count === 0 || n <= 0) return null;
    return doubleOf(Math.sqrt(Math.max(this.m2, 0) / n));
  }
  reset(): void {
    this.count = 0;
    this.mean = 0;
    this.m2 = 0;
  }
}

/**
 * A removable state for the accumulators whose state keeps only a selection (`$firstN`,
 * `$topN`, `$median`...): it keeps every value and feeds a fresh state when asked its result.
 */
export class RecomputingState implements Accumulator {
  private readonly kept = new ValueQueue();
  constructor(private readonly fresh: () => Accumulator) {}
  add(v: unknown): void {
    this.kept.push(v);
  }
  remove(): void {
    this.kept.shift();
  }
  result(): unknown {
    const state = this.fresh();
    for (const v of this.kept.values()) state.add(v);
    return state.result();
  }
  reset(): void {
    this.kept.clear();
  }
}

/**
 * `$firstN` and `$lastN` (AccumulatorFirstLastN): the first (last) `n` values in input order,
 * a missing value as null.
 */
export class FirstLastNState implements Accumulator {
  private values: unknown[] = [];
  constructor(
    private readonly n: number,
    private readonly last: boolean,
  ) {}
  add(v: unknown): void {
    const value = v === MISSING ? null : v;
    if (this.values.length === this.n) {
      if (!this.last) return;
      this.values.shift();
    }
    this.values.push(value);
  }
  remove(): void {
    notRemovable(this.last ? '$lastN' : '$firstN');
  }
  result(): unknown {
    return this.values.slice();
  }
  reset(): void {
    this.values = [];
  }
}

/**
 * `$minN` and `$maxN` (AccumulatorMinMaxN): the `n` least (greatest) values in BSON order,
 * ascending for `$minN`, descending for `$maxN`; null and missing ignored.
 */
export class MinMaxNState implements Accumulator {
  /** Best first. */
  private values: unknown[] = [];
  constructor(
    private readonly n: number,
    private readonly sign: 1 | -1,
    private readonly collator: Collator | null,
  ) {}
  add(v: unknown): void {
    if (isNullish(v)) return;
    const vals = this.values;
    // Where `v` goes: after every value at least as good.
    let lo = 0;
    let hi = vals.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareValues(vals[mid], v, this.collator) * this.sign >= 0) lo = mid + 1;
      else hi = mid;
    }
    if (vals.length === this.n) {
      if (lo >= this.n) return;
      vals.pop();
    }
    vals.splice(lo, 0, v);
  }
  remove(): void {
    notRemovable(this.sign > 0 ? '$maxN' : '$minN');
  }
  result(): unknown {
    return this.values.slice();
  }
  reset(): void {
    this.values = [];
  }
}

/**
 * `$top`, `$bottom`, `$topN`, `$bottomN` (AccumulatorTopBottomN): fed `[document, output]`
 * pairs, keeps the `n` first (`bottom`: last) outputs in the order of `sortBy`, ties keeping the
 * value seen first; a missing output is null. `single`: the one output (null for none).
 */
export class TopBottomState implements Accumulator {
  /** In sort order, equal keys in arrival order. */
  private items: [unknown, unknown][] = [];
  constructor(
    private readonly n: number,
    private readonly bottom: boolean,
    private readonly single: boolean,
    private readonly compare: (a: unknown, b: unknown) => number,
  ) {}
  add(v: unknown): void {
    const [doc, out] = v as [unknown, unknown];
    const pair: [unknown, unknown] = [doc, out === MISSING ? null : out];
    const items = this.items;
    if (items.length === this.n) {
      if (this.bottom) {
        if (this.compare(doc, items[0]![0]) <= 0) return;
      } else if (this.compare(items[items.length - 1]![0], doc) <= 0) return;
    }
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(items[mid]![0], doc) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, pair);
    if (items.length > this.n) {
      if (this.bottom) items.shift();
      else items.pop();
    }
  }
  remove(): void {
    notRemovable('$topN');
  }
  result(): unknown {
    if (this.single) return this.items.length === 0 ? null : this.items[0]![1];
    return this.items.map((p) => p[1]);
  }
  reset(): void {
    this.items = [];
  }
}

/** A `$percentile`/`$median` computation method. */
export type PercentileMethod = 'approximate' | 'discrete' | 'continuous';

/** The settings of a `$percentile` or `$median` state. */
export interface PercentileSettings {
  /** The percentiles, each in [0, 1]; null for `$median` (one value, not an array). */
  readonly p: readonly number[] | null;
  readonly method: PercentileMethod;
}

/**
 * `$percentile` and `$median` (accumulator_percentile.cpp): the numeric values (others
 * ignored), as Doubles; `approximate` and `discrete` take the value of rank ⌈p·n⌉ (mongod's
 * digest is exact on the inputs it can hold), `continuous` interpolates between the values of
 * ranks ⌊p·(n−1)⌋ and ⌈p·(n−1)⌉. Null (an array of nulls) without numeric input.
 */
export class PercentileState implements Accumulator {
  private values: number[] = [];
  constructor(private readonly settings: PercentileSettings) {}
  add(v: unknown): void {
    if (numKind(v) !== null) this.values.push(toDouble(v));
  }
  remove(): void {
    notRemovable(this.settings.p === null ? '$median' : '$percentile');
  }
  result(): unknown {
    const ps = this.settings.p ?? [0.5];
    const sorted = this.values.slice().sort((a, b) => (Number.isNaN(a) ? -1 : Number.isNaN(b) ? 1 : a - b));
    const out = ps.map((p) => (sorted.length === 0 ? null : doubleOf(percentileOf(sorted, p, this.settings.method))));
    return this.settings.p === null ? out[0] : out;
  }
  reset(): void {
    this.values = [];
  }
}

function percentileOf(sorted: readonly number[], p: number, method: PercentileMethod): number {
  const n = sorted.length;
  if (method === 'continuous') {
    const rank = p * (n - 1);
    const lo = Math.floor(rank);
    const hi = Math.ceil(rank);
    if (lo === hi) return sorted[lo]!;
    return sorted[lo]! + (rank - lo) * (sorted[hi]! - sorted[lo]!);
  }
  const index = Math.max(0, Math.ceil(p * n) - 1);
  return sorted[Math.min(index, n - 1)]!;
}

/**
 * The argument of `$percentile` (`{input, p, method}`) or `$median` (`{input, method}`), checked
 * as mongod's IDL parser does (40414 missing, 40415 unknown field, 14 and 2 for `method`); `p`
 * a constant (7750300), non-empty array (7750301) of numbers (7750302) in [0, 1] (7750303).
 */
export function parsePercentileArguments(spec: unknown, name: '$percentile' | '$median', notObjectCode: number): AccumulatorArguments {
  if (!isDocument(spec)) {
    throw new CommandError(notObjectCode, `specification must be an object; found ${formatElement(name, spec)}`);
  }
  const withP = name === '$percentile';
  // The IDL parser: each field in order (unknown fields, the type and value of `method`), then
  // the required fields, then `p` (parseP).
  for (const field of Object.keys(spec)) {
    if (field === 'method') {
      const method = spec.method;
      if (typeof method !== 'string') {
        throw new CommandError(
          'TypeMismatch',
          `BSON field '${name}.method' is the wrong type '${bsonTypeOf(method)}', expected type 'string'`,
        );
      }
      if (method !== 'approximate' && method !== 'discrete' && method !== 'continuous') {
        throw new CommandError('BadValue', "Currently only 'approximate', 'discrete', and 'continuous' can be used as percentile 'method'.");
      }
    } else if (field !== 'input' && !(withP && field === 'p')) {
      throw new CommandError(40415, `BSON field '${name}.${field}' is an unknown field.`);
    }
  }
  const has = (f: string): boolean => Object.prototype.hasOwnProperty.call(spec, f);
  for (const f of withP ? ['input', 'p', 'method'] : ['input', 'method']) {
    if (!has(f)) throw new CommandError(40414, `BSON field '${name}.${f}' is missing but a required field`);
  }
  const p = withP ? percentilesOf(spec.p) : null;
  const settings: PercentileSettings = { p, method: spec.method as PercentileMethod };
  return { input: spec.input, settings };
}

/**
 * The constant value of `p` (mongod folds the expression and requires a constant, 7750300): a
 * literal, `{$literal: ..}`, or an array of those; anything reading a document or a variable
 * is not constant.
 */
function constantOf(v: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof v === 'string') return v.charCodeAt(0) === 36 ? { ok: false } : { ok: true, value: v };
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const el of v) {
      const c = constantOf(el);
      if (!c.ok) return c;
      out.push(c.value);
    }
    return { ok: true, value: out };
  }
  if (isDocument(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$literal') return { ok: true, value: v.$literal };
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      if (k.charCodeAt(0) === 36) return { ok: false };
      const c = constantOf(v[k]);
      if (!c.ok) return c;
      out[k] = c.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value: v };
}

/** `parseP` of accumulator_percentile.cpp: a constant, non-empty array of numbers in [0, 1]. */
function percentilesOf(v: unknown): number[] {
  const folded = constantOf(v);
  if (!folded.ok) {
    throw new CommandError(
      7750300,
      `The $percentile 'p' field must be an array of constant values, but found value: ${formatValue(v)}.`,
    );
  }
  const values = folded.value;
  const message = "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: ";
  if (!Array.isArray(values) || values.length === 0) throw new CommandError(7750301, message + docValueToString(values));
  return values.map((x) => {
    if (!isNumber(x)) throw new CommandError(7750302, message + docValueToString(x));
    const d = toDouble(x);
    if (!(d >= 0 && d <= 1)) throw new CommandError(7750303, message + docValueToString(doubleOf(d)));
    return d;
  });
}

/** The settings a `$percentile`/`$median` state was made with (`$median` approximate by default). */
export function percentileSettingsOf(options: StateOptions | undefined, median: boolean): PercentileSettings {
  const s = options?.settings as PercentileSettings | undefined;
  return s ?? { p: median ? null : [0.5], method: 'approximate' };
}

/** mongod's cap on the array one `$push` or `$addToSet` builds (internalQueryMaxPushBytes, internalQueryMaxAddToSetBytes). */
export const MAX_ARRAY_BYTES = 100 * 1024 * 1024;

/** The BSON size of `v` as an element value (a document's bytes without its name and type). */
export function valueBytes(v: unknown): number {
  // {"": v}: 4 (length) + 1 (type) + 1 (empty name) + value + 1 (terminator).
  return bsonSize({ '': v }) - 7;
}

/**
 * The memory check of `$push` and `$addToSet` in mongod 8.2's `$group` (SBE's
 * addToArrayCapped / addToSetCapped): the array may not grow past MAX_ARRAY_BYTES
 * (146 ExceededMemoryLimit). Sizes are BSON sizes, mongod's are its own estimates.
 */
export class ArrayBytes {
  bytes = 0;
  constructor(private readonly kind: 'array' | 'set') {}
  /** Accounts for `v` joining a container of `count` elements; throws past the cap. */
  add(v: unknown, count: number): void {
    const size = valueBytes(v);
    const total = this.bytes + size;
    if (total > MAX_ARRAY_BYTES) {
      throw new CommandError(
        'ExceededMemoryLimit',
        `Used too much memory for a single ${this.kind}. Memory limit: ${MAX_ARRAY_BYTES} bytes. ` +
          `The ${this.kind} contains ${count} elements and is of size ${this.bytes} bytes. ` +
          `The element being added has size ${size} bytes.`,
      );
    }
    this.bytes = total;
  }
  /** Accounts for `v` leaving. */
  remove(v: unknown): void {
    this.bytes -= valueBytes(v);
  }
  reset(): void {
    this.bytes = 0;
  }
}
