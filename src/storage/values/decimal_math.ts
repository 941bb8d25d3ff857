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
import { addParts, divideDecimal, negateParts } from './numeric.js';

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

const MIN_EXPONENT = -6176;
const ZERO_UNDERFLOW: DecimalParts = { kind: 'finite', negative: false, coefficient: 0n, exponent: MIN_EXPONENT };

/**
 * An inexact result as decimal128 writes it: 34 significant digits, trailing zeros kept (as
 * far as the exponent range allows); a zero is the underflowed 0E-6176.
 */
function inexact(p: DecimalParts): DecimalParts {
  if (p.kind !== 'finite') return p;
  if (p.coefficient === 0n) return ZERO_UNDERFLOW;
  const digits = p.coefficient.toString().length;
  if (digits > 34) return p;
  const pad = Math.min(34 - digits, p.exponent - MIN_EXPONENT);
  if (pad <= 0) return p;
  return { ...p, coefficient: p.coefficient * 10n ** BigInt(pad), exponent: p.exponent - pad };
}

/** decimal.js's result, rounded to 34 digits, as parts. */
function rounded(f: () => Dec): DecimalParts {
  return decimalJsToParts(new D(f()).toSignificantDigits(34));
}

function js(v: Decimal128): Dec {
  return partsToDecimalJs(decodeDecimal(v));
}

function isZero(p: DecimalParts): boolean {
  return p.kind === 'finite' && p.coefficient === 0n;
}

function isOne(p: DecimalParts): boolean {
  if (p.kind !== 'finite' || p.negative || p.coefficient === 0n) return false;
  return p.exponent <= 0 && p.coefficient === 10n ** BigInt(-p.exponent);
}

/** The power of ten `p` is exactly (10^k), or null. */
function powerOfTen(p: DecimalParts): number | null {
  if (p.kind !== 'finite' || p.negative || p.coefficient === 0n) return null;
  const text = p.coefficient.toString();
  if (!/^10*$/.test(text)) return null;
  return p.exponent + text.length - 1;
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

/** An exact square root with the exponent nearest IEEE's preferred floor(e / 2). */
function exactSqrt(x: DecimalParts & { kind: 'finite' }, r: DecimalParts): DecimalParts | null {
  if (r.kind !== 'finite') return null;
  const square = r.coefficient * r.coefficient;
  const e2 = r.exponent * 2;
  // Compare r^2 with x exactly.
  const shift = Math.min(e2, x.exponent);
  const a = square * 10n ** BigInt(e2 - shift);
  const b = x.coefficient * 10n ** BigInt(x.exponent - shift);
  if (a !== b) return null;
  const preferred = Math.floor(x.exponent / 2);
  let { coefficient, exponent } = r;
  while (exponent > preferred && coefficient.toString().length < 34) {
    coefficient *= 10n;
    exponent -= 1;
  }
  return { kind: 'finite', negative: x.negative, coefficient, exponent };
}

/**
 * `f(x)` as a Decimal128: correctly rounded to 34 digits; an inexact result keeps all 34 digits
 * (IEEE's functions give no shorter result), an exact one (sqrt of a square, log10 of a power
 * of ten, ln(1), exp(0), f(0) = 0) is written short, and so is an exp or log10 that rounds to
 * an integer (as mongod's library writes them).
 */
export function decimalUnary(name: DecimalUnary, x: Decimal128): Decimal128 {
  const px = decodeDecimal(x);
  const a = partsToDecimalJs(px);
  if (px.kind === 'nan') return encodeDecimal(px);
  switch (name) {
    case 'sqrt': {
      const r = rounded(() => a.sqrt());
      if (px.kind === 'finite') {
        if (px.coefficient === 0n) return encodeDecimal({ ...px, exponent: Math.floor(px.exponent / 2) });
        const exact = exactSqrt(px, r);
        if (exact !== null) return encodeDecimal(exact);
      }
      return encodeDecimal(inexact(r));
    }
    case 'log10': {
      const k = powerOfTen(px);
      if (k !== null) return encodeDecimal({ kind: 'finite', negative: k < 0, coefficient: BigInt(Math.abs(k)), exponent: 0 });
      const r = rounded(() => a.log(10));
      return encodeDecimal(r.kind === 'finite' && r.coefficient !== 0n && r.exponent >= 0 ? r : inexact(r));
    }
    case 'ln':
      if (isOne(px)) return encodeDecimal({ kind: 'finite', negative: false, coefficient: 0n, exponent: 0 });
      return encodeDecimal(inexact(rounded(() => a.ln())));
    case 'exp': {
      if (isZero(px)) return encodeDecimal({ kind: 'finite', negative: false, coefficient: 1n, exponent: 0 });
      if (px.kind === 'inf' && px.negative) return encodeDecimal({ kind: 'finite', negative: false, coefficient: 0n, exponent: 0 });
      const r = rounded(() => a.exp());
      return encodeDecimal(r.kind === 'finite' && r.coefficient !== 0n && r.exponent >= 0 ? r : inexact(r));
    }
    default: {
      const r = rounded(() => a[name]());
      if (isZero(px) && r.kind === 'finite' && (r.coefficient === 0n || r.coefficient === 1n)) {
        return encodeDecimal(r.coefficient === 0n ? { ...r, negative: px.kind === 'finite' && px.negative } : r);
      }
      if (r.kind === 'finite' && r.coefficient === 0n) return encodeDecimal(r);
      return encodeDecimal(inexact(r));
    }
  }
}

/** `x` raised to `y`, as a Decimal128 (all 34 digits, a zero underflowed to 0E-6176). */
export function decimalPow(x: Decimal128, y: Decimal128): Decimal128 {
  const a = js(x);
  const b = js(y);
  return encodeDecimal(inexact(rounded(() => a.pow(b))));
}

/** The logarithm of `x` in base `base`: ln(x) / ln(base), each rounded to 34 digits, as mongod. */
export function decimalLog(x: Decimal128, base: Decimal128): Decimal128 {
  return divideDecimal(decimalUnary('ln', x), decimalUnary('ln', base));
}

/**
 * `1 / (1 + e^-x)` as mongod computes `$sigmoid`'s Decimal128 (a `$divide` of 1 by an `$add`
 * of 1 and an `$exp`), each step rounded to 34 digits; an infinite denominator gives 0E-6176.
 */
export function decimalSigmoid(x: Decimal128): Decimal128 {
  const e = decimalUnary('exp', encodeDecimal(negateParts(decodeDecimal(x))));
  const denominator = encodeDecimal(addParts(decodeDecimal(e), { kind: 'finite', negative: false, coefficient: 1n, exponent: 0 }));
  if (decodeDecimal(denominator).kind === 'inf') return encodeDecimal(ZERO_UNDERFLOW);
  return divideDecimal(1, denominator);
}

/** `atan2(y, x)`, as a Decimal128. */
export function decimalAtan2(y: Decimal128, x: Decimal128): Decimal128 {
  const a = js(y);
  const b = js(x);
  const r = rounded(() => D.atan2(a, b));
  if (r.kind === 'finite' && r.coefficient === 0n) return encodeDecimal(r);
  return encodeDecimal(inexact(r));
}

/** How `quantize` rounds the digits it drops. */
export type QuantizeRounding = 'halfEven' | 'towardZero' | 'towardPositive' | 'towardNegative';

/**
 * IEEE 754-2008 quantize: `p` with exponent `exponent`, rounded by `rounding`; NaN for an
 * infinity or NaN; when the result would need more than 34 digits, NaN or `p` itself (`tooLong`).
 */
export function quantizeParts(
  p: DecimalParts,
  exponent: number,
  rounding: QuantizeRounding,
  tooLong: 'keep' | 'nan' = 'keep',
): DecimalParts {
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
  // The result would need more than 34 digits: IEEE's invalid NaN ($ceil, $floor), or the value
  // given back as mongod's $round and $trunc do.
  if (coefficient.toString().length > 34) return tooLong === 'nan' ? { kind: 'nan' } : p;
  return { kind: 'finite', negative: p.negative, coefficient, exponent };
}

/** Parts as a JS double, correctly rounded (Decimal128::toDouble). */
export function partsToDouble(p: DecimalParts): number {
  if (p.kind === 'nan') return NaN;
  if (p.kind === 'inf') return p.negative ? -Infinity : Infinity;
  const d = Number(`${p.coefficient}e${p.exponent}`);
  return p.negative ? -d : d;
}
