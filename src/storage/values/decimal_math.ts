/**
 * Decimal128 functions that are not exact (square root, logarithms, exponential, powers,
 * trigonometry), computed with decimal.js at 34 significant digits rounded half to even as
 * IEEE 754-2008 decimal128 does, and `quantize` (rounding at a decimal place, as `$round`,
 * `$trunc`, `$ceil` and `$floor` do). The conversion to and from decimal.js goes through the
 * exact parts of `decimal.ts`, whose `encodeDecimal` applies decimal128's exponent range
 * (gradual underflow, clamping, overflow to infinity).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import type { Decimal128 } from '../../bson/library.js';
import { decodeDecimal, encodeDecimal, type DecimalParts } from './decimal.js';

/** A private decimal.js class: 34 digits, half-even; nobody else's settings leak in or out. */
const D = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  minE: -9e15,
  maxE: 9e15,
  modulo: DecimalJs.ROUND_DOWN,
});
type Dec = InstanceType<typeof D>;
/** Guard digits for a composed result (sigmoid), rounded to 34 once at the end. */
const WIDE = D.clone({ precision: 60 });

/** Decimal parts as a decimal.js value (exact). */
export function partsToDecimalJs(p: DecimalParts): Dec {
  if (p.kind === 'nan') return new D(NaN);
  if (p.kind === 'inf') return new D(p.negative ? -Infinity : Infinity);
  return new D(`${p.negative ? '-' : ''}${p.coefficient}e${p.exponent}`);
}

/** A decimal.js value as decimal parts (exact; trailing zeros of the coefficient dropped). */
export function decimalJsToParts(d: Dec): DecimalParts {
  if (d.isNaN()) return { kind: 'nan' };
  if (!d.isFinite()) return { kind: 'inf', negative: d.isNegative() };
  const negative = d.isNegative();
  if (d.isZero()) return { kind: 'finite', negative, coefficient: 0n, exponent: 0 };
  const [mant, exp] = d.abs().toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  return { kind: 'finite', negative, coefficient: BigInt(digits), exponent: Number(exp) - (digits.length - 1) };
}

function run(f: () => Dec): Decimal128 {
  return encodeDecimal(decimalJsToParts(f()));
}

function js(v: Decimal128): Dec {
  return partsToDecimalJs(decodeDecimal(v));
}

/** A unary Decimal128 function by name. */
export type DecimalUnary =
  | 'sqrt'
  | 'ln'
  | 'log10'
  | 'exp'
  | 'sin'
  | 'cos'
  | 'tan'
  | 'asin'
  | 'acos'
  | 'atan'
  | 'sinh'
  | 'cosh'
  | 'tanh'
  | 'asinh'
  | 'acosh'
  | 'atanh';

/** `f(x)` rounded to a Decimal128. */
export function decimalUnary(name: DecimalUnary, x: Decimal128): Decimal128 {
  const a = js(x);
  if (name === 'log10') return run(() => a.log(10));
  return run(() => a[name]());
}

/** `x` raised to `y`, as a Decimal128. */
export function decimalPow(x: Decimal128, y: Decimal128): Decimal128 {
  const a = js(x);
  const b = js(y);
  return run(() => a.pow(b));
}

/** The logarithm of `x` in base `base`, as a Decimal128. */
export function decimalLog(x: Decimal128, base: Decimal128): Decimal128 {
  const a = js(x);
  const b = js(base);
  return run(() => a.log(b));
}

/** `atan2(y, x)`, as a Decimal128. */
export function decimalAtan2(y: Decimal128, x: Decimal128): Decimal128 {
  const a = js(y);
  const b = js(x);
  return run(() => D.atan2(a, b));
}

/** `1 / (1 + e^-x)`, as a Decimal128. */
export function decimalSigmoid(x: Decimal128): Decimal128 {
  const a = js(x);
  return run(() => {
    const w = new WIDE(1).div(WIDE.exp(new WIDE(a).neg()).plus(1));
    return new D(w).toSignificantDigits(34);
  });
}

/** How `quantize` rounds the digits it drops. */
export type QuantizeRounding = 'halfEven' | 'towardZero' | 'towardPositive' | 'towardNegative';

/**
 * IEEE 754-2008 quantize: `p` with exponent `exponent`, rounded by `rounding`; NaN when the
 * result needs more than 34 digits or `p` is not finite.
 */
export function quantizeParts(p: DecimalParts, exponent: number, rounding: QuantizeRounding): DecimalParts {
  if (p.kind !== 'finite') return { kind: 'nan' };
  let coefficient: bigint;
  if (p.exponent >= exponent) {
    coefficient = p.coefficient * 10n ** BigInt(p.exponent - exponent);
  } else {
    const divisor = 10n ** BigInt(exponent - p.exponent);
    coefficient = p.coefficient / divisor;
    const rest = p.coefficient % divisor;
    if (rest !== 0n) {
      let up: boolean;
      switch (rounding) {
        case 'halfEven': {
          const twice = rest * 2n;
          up = twice > divisor || (twice === divisor && (coefficient & 1n) === 1n);
          break;
        }
        case 'towardZero':
          up = false;
          break;
        case 'towardPositive':
          up = !p.negative;
          break;
        case 'towardNegative':
          up = p.negative;
          break;
      }
      if (up) coefficient += 1n;
    }
  }
  if (coefficient.toString().length > 34) return { kind: 'nan' };
  return { kind: 'finite', negative: p.negative, coefficient, exponent };
}

/** Parts as a JS double, correctly rounded (Decimal128::toDouble). */
export function partsToDouble(p: DecimalParts): number {
  if (p.kind === 'nan') return NaN;
  if (p.kind === 'inf') return p.negative ? -Infinity : Infinity;
  const d = Number(`${p.coefficient}e${p.exponent}`);
  return p.negative ? -d : d;
}
