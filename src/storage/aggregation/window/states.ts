/**
 * The removable states of the window-only functions that run over a frame like an accumulator
 * (`Accumulator` of ../../accumulators/types.ts, so bounds.ts `slide` drives them):
 * `$covariancePop`/`$covarianceSamp` (window_function_covariance.cpp) and `$integral`
 * (window_function_integral.cpp).
 */
import { CommandError } from '../../../errors/command_error.js';
import { SumState, ValueQueue } from '../../accumulators/_internal.js';
import type { Accumulator } from '../../accumulators/types.js';
import { Decimal128 } from '../../../bson/library.js';
import { decodeDecimal } from '../../values/decimal.js';
import { isNaNNumber, isNumber, doubleOf, numKind, toDouble } from '../../values/numeric.js';

/** The value arithmetic of mongod's expressions (`$subtract`, `$multiply`, `$divide`), over two values. */
export interface Arithmetic {
  readonly subtract: (a: unknown, b: unknown) => unknown;
  readonly multiply: (a: unknown, b: unknown) => unknown;
  readonly divide: (a: unknown, b: unknown) => unknown;
}

/**
 * Fed `[x, y]` (anything else is ignored): the co-moment by Welford's online update in mongod's
 * value arithmetic (means as removable `$avg` states, the co-moment a removable `$sum`, so
 * Decimal128 inputs give a Decimal128), the pairs with a NaN or an infinity summed apart as
 * NaN or ±Infinity; divided by n (`sample`: n − 1) when asked. Null without enough pairs (a
 * single pair's population covariance is 0).
 */
export class CovarianceState implements Accumulator {
  private count = 0;
  private readonly meanX: Accumulator;
  private readonly meanY: Accumulator;
  private readonly cXY = new SumState();
  constructor(
    private readonly sample: boolean,
    private readonly ops: Arithmetic,
    mean: () => Accumulator,
  ) {
    this.meanX = mean();
    this.meanY = mean();
  }

  private static valid(v: unknown): v is [unknown, unknown] {
    return Array.isArray(v) && v.length === 2 && isNumber(v[0]) && isNumber(v[1]);
  }

  /** The one value a pair with a NaN or an infinity adds (mongod's convertNonFiniteInputValue), or null for a finite pair. */
  private static nonFinite(v: [unknown, unknown]): unknown {
    let pos = 0;
    let neg = 0;
    let nan = 0;
    let decimal = false;
    for (const el of v) {
      if (numKind(el) === 'decimal') {
        // A Decimal128 past the doubles' range is finite: its parts say, not toDouble.
        decimal = true;
        const parts = decodeDecimal(el as Decimal128);
        if (parts.kind === 'nan') nan++;
        else if (parts.kind === 'inf') parts.negative ? neg++ : pos++;
        continue;
      }
      const d = toDouble(el);
      if (Number.isNaN(d)) nan++;
      else if (d === Infinity) pos++;
      else if (d === -Infinity) neg++;
    }
    if (nan === 0 && pos === 0 && neg === 0) return null;
    const x = nan > 0 || pos * neg > 0 ? NaN : pos > 0 ? Infinity : -Infinity;
    return decimal ? Decimal128.fromString(Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity') : doubleOf(x);
  }

  add(v: unknown): void {
    if (!CovarianceState.valid(v)) return;
    const special = CovarianceState.nonFinite(v);
    if (special !== null) {
      this.cXY.add(special);
      return;
    }
    this.count++;
    const { subtract, multiply } = this.ops;
    const deltaX = subtract(v[0], this.meanX.result());
    this.meanX.add(v[0]);
    this.meanY.add(v[1]);
    const deltaY = subtract(v[1], this.meanY.result());
    this.cXY.add(multiply(deltaX, deltaY));
  }

  remove(v: unknown): void {
    if (!CovarianceState.valid(v)) return;
    const special = CovarianceState.nonFinite(v);
    if (special !== null) {
      this.cXY.remove(special);
      return;
    }
    this.count--;
    if (this.count === 0) {
      this.reset();
      return;
    }
    const { subtract, multiply } = this.ops;
    this.meanX.remove(v[0]);
    const deltaX = subtract(v[0], this.meanX.result());
    const deltaY = subtract(v[1], this.meanY.result());
    this.cXY.remove(multiply(deltaX, deltaY));
    this.meanY.remove(v[1]);
  }

  result(): unknown {
    if (this.count === 1 && !this.sample) return doubleOf(0);
    const adjusted = this.sample ? this.count - 1 : this.count;
    if (adjusted <= 0) return null;
    const total = this.cXY.result();
    if (numKind(total) === 'decimal') return this.ops.divide(total, doubleOf(adjusted));
    return doubleOf(toDouble(total) / adjusted);
  }

  reset(): void {
    this.count = 0;
    this.meanX.reset();
    this.meanY.reset();
    this.cXY.reset();
  }
}

/**
 * `$integral`'s state, fed `[x, y]` (x the sortBy value, a number or with `unitMs` a date; y a
 * number: 5423900-5423902): the trapezoids between consecutive points, `(x₂ − x₁)·(y₁ + y₂) / 2.0`
 * in mongod's value arithmetic (dates subtract to milliseconds), in a removable sum; NaN while a
 * NaN is in the frame; divided by the unit's milliseconds when there is one.
 */
export class IntegralState implements Accumulator {
  private readonly points = new ValueQueue();
  private readonly sum = new SumState();
  private nans = 0;
  constructor(
    private readonly unitMs: number | null,
    private readonly ops: Arithmetic & { readonly add: (a: unknown, b: unknown) => unknown },
  ) {}

  private check(v: unknown): [unknown, unknown] {
    const ok = Array.isArray(v) && v.length === 2 && isNumber(v[1]) && (isNumber(v[0]) || v[0] instanceof Date);
    if (!ok) {
      throw new CommandError(
        5423900,
        'The input value of $integral window function must be a vector of 2 value, the first value must be numeric or date type and the second must be numeric.',
      );
    }
    const [x, y] = v as [unknown, unknown];
    if (this.unitMs !== null) {
      if (!(x instanceof Date)) throw new CommandError(5423901, "$integral with 'outputUnit' expects the sortBy field to be a Date");
    } else if (!isNumber(x)) throw new CommandError(5423902, "$integral (with no 'outputUnit') expects the sortBy field to be numeric");
    return [x, y];
  }

  private static hasNaN(p: [unknown, unknown]): boolean {
    return isNaNNumber(p[0]) || isNaNNumber(p[1]);
  }

  private trapezoid(a: [unknown, unknown], b: [unknown, unknown]): unknown {
    if (IntegralState.hasNaN(a) || IntegralState.hasNaN(b)) return 0;
    const { subtract, add, multiply, divide } = this.ops;
    return divide(multiply(add(b[1], a[1]), subtract(b[0], a[0])), doubleOf(2));
  }

  add(v: unknown): void {
    const p = this.check(v);
    if (IntegralState.hasNaN(p)) this.nans++;
    if (this.points.length > 0) this.sum.add(this.trapezoid(this.points.last() as [unknown, unknown], p));
    this.points.push(p);
  }

  remove(v: unknown): void {
    const p = this.check(v);
    if (IntegralState.hasNaN(p)) this.nans--;
    this.points.shift();
    if (this.points.length > 0) this.sum.remove(this.trapezoid(p, this.points.first() as [unknown, unknown]));
  }

  result(): unknown {
    if (this.nans > 0) return doubleOf(NaN);
    const r = this.sum.result();
    return this.unitMs === null ? r : this.ops.divide(r, this.unitMs);
  }

  reset(): void {
    this.points.clear();
    this.sum.reset();
    this.nans = 0;
  }
}

/**
 * The removable `$stdDevPop`/`$stdDevSamp` of a sliding frame (window_function_stddev.h, which
 * differs from the `$group` accumulator): the running sum and sum of squared differences as
 * removable sums, numeric values only; null while a NaN or an infinity is in the frame, null
 * without enough values, 0 for one value (population) or a negative rounding.
 */
export class WindowStdDevState implements Accumulator {
  private count = 0;
  private nonFinite = 0;
  private readonly sum = new SumState();
  private readonly m2 = new SumState();
  constructor(private readonly sample: boolean) {}

  add(v: unknown): void {
    if (!isNumber(v)) return;
    const x = toDouble(v);
    if (!Number.isFinite(x)) {
      this.nonFinite++;
      return;
    }
    if (this.count > 0) {
      const d = this.count * x - this.sum.totalAsDouble;
      this.m2.add(doubleOf((d * d) / (this.count * (this.count + 1))));
    }
    this.sum.add(doubleOf(x));
    this.count++;
  }

  remove(v: unknown): void {
    if (!isNumber(v)) return;
    const x = toDouble(v);
    if (!Number.isFinite(x)) {
      this.nonFinite--;
      return;
    }
    this.sum.remove(doubleOf(x));
    this.count--;
    if (this.count === 0) {
      this.sum.reset();
      this.m2.reset();
      return;
    }
    const d = this.count * x - this.sum.totalAsDouble;
    this.m2.remove(doubleOf((d * d) / (this.count * (this.count + 1))));
  }

  result(): unknown {
    if (this.nonFinite > 0) return null;
    const adjusted = this.sample ? this.count - 1 : this.count;
    if (adjusted <= 0) return null;
    const m2 = this.m2.totalAsDouble;
    if (m2 < 0 || (!this.sample && this.count === 1)) return 0;
    return doubleOf(Math.sqrt(m2 / adjusted));
  }

  reset(): void {
    this.count = 0;
    this.nonFinite = 0;
    this.sum.reset();
    this.m2.reset();
  }
}
