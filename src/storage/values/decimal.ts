/**
 * Exact Decimal128 arithmetic helpers: decoding the IEEE 754-2008 BID layout into sign,
 * coefficient and exponent, encoding back with round-half-even to 34 digits, and exact
 * rational views of every numeric type so that comparisons across Int32/Int64/Double/Decimal128
 * never lose precision.
 */
import { Decimal128 } from '../../bson/library.js';

/** A decoded Decimal128 (or any numeric, converted exactly). */
export type DecimalParts =
  | { readonly kind: 'nan' }
  | { readonly kind: 'inf'; readonly negative: boolean }
  | { readonly kind: 'finite'; readonly negative: boolean; readonly coefficient: bigint; readonly exponent: number };

const EXPONENT_BIAS = 6176;
const MAX_EXPONENT = 6111;
const MIN_EXPONENT = -6176;
const MAX_DIGITS = 34;
const MAX_COEFFICIENT = 10n ** 34n - 1n;
const MASK64 = (1n << 64n) - 1n;

function readUint64LE(bytes: Uint8Array, offset: number): bigint {
  let lo = 0;
  let hi = 0;
  for (let i = 3; i >= 0; i--) lo = lo * 256 + bytes[offset + i]!;
  for (let i = 7; i >= 4; i--) hi = hi * 256 + bytes[offset + i]!;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Decodes a Decimal128 into its parts (non-canonical coefficients read as zero, as IEEE says). */
export function decodeDecimal(d: Decimal128): DecimalParts {
  const bytes = d.bytes;
  const high = readUint64LE(bytes, 8);
  const low = readUint64LE(bytes, 0);
  const negative = (high >> 63n) === 1n;
  const combination = Number((high >> 58n) & 0x1fn);
  let exponent: number;
  let coefficient: bigint;
  if (combination >> 3 === 0b11) {
    if (combination === 0b11110) return { kind: 'inf', negative };
    if (combination === 0b11111) return { kind: 'nan' };
    // Large-coefficient form: implied 0b100 prefix, always > 10^34, hence non-canonical (zero).
    exponent = Number((high >> 47n) & 0x3fffn) - EXPONENT_BIAS;
    coefficient = 0n;
  } else {
    exponent = Number((high >> 49n) & 0x3fffn) - EXPONENT_BIAS;
    coefficient = ((high & ((1n << 49n) - 1n)) << 64n) | low;
    if (coefficient > MAX_COEFFICIENT) coefficient = 0n;
  }
  return { kind: 'finite', negative, coefficient, exponent };
}

/** Encodes parts into a Decimal128, rounding half-even to 34 digits and clamping the exponent. */
export function encodeDecimal(parts: DecimalParts): Decimal128 {
  if (parts.kind === 'nan') return Decimal128.fromString('NaN');
  if (parts.kind === 'inf') return Decimal128.fromString(parts.negative ? '-Infinity' : 'Infinity');
  let { coefficient, exponent } = parts;
  const negative = parts.negative;
  // Round to 34 significant digits.
  let digits = coefficient.toString().length;
  if (digits > MAX_DIGITS) {
    const drop = digits - MAX_DIGITS;
    ({ coefficient } = roundHalfEven(coefficient, drop));
    exponent += drop;
    if (coefficient > MAX_COEFFICIENT) {
      coefficient /= 10n;
      exponent += 1;
    }
  }
  // Exponent too small: lose digits (gradual underflow).
  if (exponent < MIN_EXPONENT) {
    const drop = MIN_EXPONENT - exponent;
    ({ coefficient } = roundHalfEven(coefficient, drop));
    exponent = MIN_EXPONENT;
  }
  // Exponent too large: pad the coefficient (clamp) or overflow to infinity.
  if (exponent > MAX_EXPONENT) {
    if (coefficient === 0n) {
      exponent = MAX_EXPONENT;
    } else {
      digits = coefficient.toString().length;
      const pad = exponent - MAX_EXPONENT;
      if (digits + pad > MAX_DIGITS) return encodeDecimal({ kind: 'inf', negative });
      coefficient *= 10n ** BigInt(pad);
      exponent = MAX_EXPONENT;
    }
  }
  const biased = BigInt(exponent + EXPONENT_BIAS);
  let high = (biased << 49n) | (coefficient >> 64n);
  if (negative) high |= 1n << 63n;
  const low = coefficient & MASK64;
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    bytes[i] = Number((low >> BigInt(8 * i)) & 0xffn);
    bytes[8 + i] = Number((high >> BigInt(8 * i)) & 0xffn);
  }
  return new Decimal128(bytes);
}

/** `p` rounded half-even to at most `digits` significant digits. */
export function roundParts(p: DecimalParts, digits: number): DecimalParts {
  if (p.kind !== 'finite') return p;
  const length = p.coefficient.toString().length;
  if (length <= digits) return p;
  const drop = length - digits;
  const { coefficient } = roundHalfEven(p.coefficient, drop);
  return { kind: 'finite', negative: p.negative, coefficient, exponent: p.exponent + drop };
}

function roundHalfEven(coefficient: bigint, drop: number): { coefficient: bigint } {
  const divisor = 10n ** BigInt(drop);
  let q = coefficient / divisor;
  const r = coefficient % divisor;
  const twice = r * 2n;
  if (twice > divisor || (twice === divisor && (q & 1n) === 1n)) q += 1n;
  return { coefficient: q };
}

/** Exact parts of a finite double (binary value written in decimal: every double is exact in base 10). */
export function doubleToExactParts(d: number): DecimalParts {
  if (Number.isNaN(d)) return { kind: 'nan' };
  if (!Number.isFinite(d)) return { kind: 'inf', negative: d < 0 };
  const negative = d < 0 || Object.is(d, -0);
  const { mantissa, exponent2 } = decomposeDouble(Math.abs(d));
  if (exponent2 >= 0) return { kind: 'finite', negative, coefficient: mantissa << BigInt(exponent2), exponent: 0 };
  // m / 2^k == m * 5^k / 10^k
  const k = -exponent2;
  return { kind: 'finite', negative, coefficient: mantissa * 5n ** BigInt(k), exponent: -k };
}

/** Parts of the Decimal128 mongod makes from a double (rounded to 15 significant digits). */
export function doubleToDecimalParts(d: number): DecimalParts {
  if (Number.isNaN(d)) return { kind: 'nan' };
  if (!Number.isFinite(d)) return { kind: 'inf', negative: d < 0 };
  const negative = d < 0 || Object.is(d, -0);
  if (d === 0) return { kind: 'finite', negative, coefficient: 0n, exponent: 0 };
  const text = Math.abs(d).toExponential(14); // 15 significant digits: "d.dddddddddddddde±x"
  const [mant, exp] = text.split('e') as [string, string];
  const coefficient = BigInt(mant.replace('.', ''));
  return { kind: 'finite', negative, coefficient, exponent: Number(exp) - 14 };
}

/** Splits a positive finite double into an integer mantissa and a power-of-two exponent. */
export function decomposeDouble(d: number): { mantissa: bigint; exponent2: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biasedExp = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent2: number;
  if (biasedExp === 0) {
    exponent2 = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent2 = biasedExp - 1075;
  }
  if (mantissa === 0n) return { mantissa, exponent2: 0 };
  while ((mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exponent2 += 1;
  }
  return { mantissa, exponent2 };
}

/** Compares two exact decimal parts numerically (NaN lowest and equal to NaN; -0 == 0). */
export function compareParts(a: DecimalParts, b: DecimalParts): number {
  if (a.kind === 'nan') return b.kind === 'nan' ? 0 : -1;
  if (b.kind === 'nan') return 1;
  const sa = signOf(a);
  const sb = signOf(b);
  if (a.kind === 'inf' || b.kind === 'inf') {
    if (a.kind === 'inf' && b.kind === 'inf') return sa === sb ? 0 : sa < sb ? -1 : 1;
    if (a.kind === 'inf') return sa;
    return sb > 0 ? -1 : 1;
  }
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const fa = a as Extract<DecimalParts, { kind: 'finite' }>;
  const fb = b as Extract<DecimalParts, { kind: 'finite' }>;
  let ca = fa.coefficient;
  let cb = fb.coefficient;
  if (fa.exponent > fb.exponent) ca *= 10n ** BigInt(fa.exponent - fb.exponent);
  else if (fb.exponent > fa.exponent) cb *= 10n ** BigInt(fb.exponent - fa.exponent);
  const mag = ca < cb ? -1 : ca > cb ? 1 : 0;
  return sa < 0 ? -mag : mag;
}

function signOf(p: DecimalParts): number {
  if (p.kind === 'nan') return 0;
  if (p.kind === 'inf') return p.negative ? -1 : 1;
  if (p.coefficient === 0n) return 0;
  return p.negative ? -1 : 1;
}

/** Removes trailing zeros from a finite coefficient (canonical form used by key strings). */
export function normaliseParts(p: DecimalParts): DecimalParts {
  if (p.kind !== 'finite') return p;
  if (p.coefficient === 0n) return { kind: 'finite', negative: false, coefficient: 0n, exponent: 0 };
  let { coefficient, exponent } = p;
  while (coefficient % 10n === 0n) {
    coefficient /= 10n;
    exponent += 1;
  }
  return { kind: 'finite', negative: p.negative, coefficient, exponent };
}
