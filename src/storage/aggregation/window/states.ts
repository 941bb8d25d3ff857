/**
 * The removable states of the window-only functions that run over a frame like an accumulator
 * (`Accumulator` of ../../accumulators/types.ts, so bounds.ts `slide` drives them):
 * `$covariancePop`/`$covarianceSamp` (window_function_covariance.cpp) and `$integral`
 * (window_function_integral.cpp).
 */
import { CommandError } from '../../../errors/command_error.js';
import { SumState, ValueQueue } from '../../accumulators/_internal.js';
import type { Accumulator } from '../../accumulators/types.js';
import { isNaNNumber, isNumber, doubleOf, toDouble } from '../../values/numeric.js';

/**
 * Fed `[x, y]` (anything else is ignored): the co-moment by Welford's online update, the
 * non-finite pairs summed apart (NaN, ±Infinity win as mongod's sum does); divided by n
 * (`sample`: n − 1) when asked. Null without enough pairs (a single pair's population covariance is 0).
 */
export class CovarianceState implements Accumulator {
  private count = 0;
  private sumX = 0;
  private sumY = 0;
  private readonly cXY = new SumState();
  constructor(private readonly sample: boolean) {}

  private static pair(v: unknown): [number, number] | null {
    if (!Array.isArray(v) || v.length !== 2 || !isNumber(v[0]) || !isNumber(v[1])) return null;
    return [toDouble(v[0]), toDouble(v[1])];
  }

  private static nonFinite(x: number, y: number): number | null {
    if (Number.isFinite(x) && Number.isFinite(y)) return null;
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    const pos = (x === Infinity ? 1 : 0) + (y === Infinity ? 1 : 0);
    const neg = (x === -Infinity ? 1 : 0) + (y === -Infinity ? 1 : 0);
    if (pos > 0 && neg > 0) return NaN;
    return pos > 0 ? Infinity : -Infinity;
  }

  add(v: unknown): void {
    const p = CovarianceState.pair(v);
    if (p === null) return;
    const [x, y] = p;
    const special = CovarianceState.nonFinite(x, y);
    if (special !== null) {
      this.cXY.add(doubleOf(special));
      return;
    }
    const meanX = this.count === 0 ? 0 : this.sumX / this.count;
    this.count++;
    this.sumX += x;
    this.sumY += y;
    const deltaX = x - meanX;
    const deltaY = y - this.sumY / this.count;
    this.cXY.add(doubleOf(deltaX * deltaY));
  }

  remove(v: unknown): void {
    const p = CovarianceState.pair(v);
    if (p === null) return;
    const [x, y] = p;
    const special = CovarianceState.nonFinite(x, y);
    if (special !== null) {
      this.cXY.remove(doubleOf(special));
      return;
    }
    this.count--;
    if (this.count === 0) {
      this.sumX = this.sumY = 0;
      this.cXY.reset();
      return;
    }
    this.sumX -= x;
    const deltaX = x - this.sumX / this.count;
    const deltaY = y - this.sumY / (this.count + 1);
    this.cXY.remove(doubleOf(deltaX * deltaY));
    this.sumY -= y;
  }

  result(): unknown {
    if (this.count === 1 && !this.sample) return doubleOf(0);
    const adjusted = this.sample ? this.count - 1 : this.count;
    if (adjusted <= 0) return null;
    return doubleOf(this.cXY.totalAsDouble / adjusted);
  }

  reset(): void {
    this.count = 0;
    this.sumX = this.sumY = 0;
    this.cXY.reset();
  }
}

/**
 * `$integral`'s state, fed `[x, y]` (x the sortBy value, a number or with `unitMs` a date; y a
 * number: 5423900-5423902): the trapezoids between consecutive points, in a removable sum; NaN
 * while a NaN is in the frame; divided by the unit's milliseconds when there is one.
 */
export class IntegralState implements Accumulator {
  private readonly points = new ValueQueue();
  private readonly sum = new SumState();
  private nans = 0;
  constructor(private readonly unitMs: number | null) {}

  private check(v: unknown): [number, number] {
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
    if (isNaNNumber(x) || isNaNNumber(y)) return [NaN, NaN];
    return [x instanceof Date ? x.getTime() : toDouble(x), toDouble(y)];
  }

  private static trapezoid(a: [number, number], b: [number, number]): unknown {
    if (Number.isNaN(a[0]) || Number.isNaN(b[0])) return 0;
    return doubleOf(((b[0] - a[0]) * (a[1] + b[1])) / 2);
  }

  add(v: unknown): void {
    const p = this.check(v);
    if (Number.isNaN(p[0])) this.nans++;
    if (this.points.length > 0) this.sum.add(IntegralState.trapezoid(this.points.last() as [number, number], p));
    this.points.push(p);
  }

  remove(v: unknown): void {
    const p = this.check(v);
    if (Number.isNaN(p[0])) this.nans--;
    this.points.shift();
    if (this.points.length > 0) this.sum.remove(IntegralState.trapezoid(p, this.points.first() as [number, number]));
  }

  result(): unknown {
    if (this.nans > 0) return doubleOf(NaN);
    const r = this.sum.result();
    if (this.unitMs === null) return r;
    return doubleOf(this.sum.totalAsDouble / this.unitMs);
  }

  reset(): void {
    this.points.clear();
    this.sum.reset();
    this.nans = 0;
  }
}
