/**
 * Conversions to int, long, double and decimal (mongod's conversion table of ExpressionConvert):
 * doubles and Decimal128s to integers truncate toward zero and fail outside the target's range,
 * strings parse as mongod's parsers accept them (base-10 integers; strtod's grammar for doubles,
 * hexadecimal floats included; Decimal128's grammar), bools are 0 and 1, dates their
 * milliseconds, BinData a little- or big-endian number of the target's sizes.
 */
import { Decimal128, Long, makeDouble, type Binary } from '../../../../../bson/library.js';
import { bsonTypeOf } from '../../../../values/bson_type.js';
import {
  compareParts,
  decodeDecimal,
  doubleToDecimalParts,
  doubleToExactParts,
  encodeDecimal,
  type DecimalParts,
} from '../../../../values/decimal.js';
import { docValueToString } from '../../../../values/format.js';
import { toDouble } from '../../../../values/numeric.js';
import { binDataBytes, readFloat, readSigned } from './bytes.js';
import { conversionFailure, unsupported } from './failure.js';
import type { ConvertOptions } from './options.js';

const NO_ON_ERROR = 'in $convert with no onError value';

/** A double as these messages print it: shortest digits, `.0` on whole numbers, `1.0e+20`. */
function messageDouble(d: number): string {
  const exp = d === 0 || !Number.isFinite(d) ? 0 : Math.floor(Math.log10(Math.abs(d)));
  if (exp >= 16 || exp < -4) {
    const [mantissa, e] = d.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${sign}${digits}`;
  }
  return Number.isInteger(d) ? `${d}.0` : String(d);
}

/** The overflow failure: the double or Decimal128 printed, an Int64 not (as mongod's message). */
function overflow(input: unknown): Error {
  const t = bsonTypeOf(input);
  const text = t === 'double' ? messageDouble(toDouble(input)) : t === 'decimal' ? String(input) : '';
  return conversionFailure(`Conversion would overflow target type ${NO_ON_ERROR}: ${text}`);
}

/** The integer a double or Decimal128 truncates to, or the failure for NaN and the infinities. */
function truncated(input: unknown): bigint {
  if (bsonTypeOf(input) === 'double') {
    const d = toDouble(input);
    if (Number.isNaN(d)) throw conversionFailure(`Attempt to convert NaN value to integer type ${NO_ON_ERROR}`);
    if (!Number.isFinite(d)) throw conversionFailure(`Attempt to convert infinity value to integer type ${NO_ON_ERROR}`);
    return BigInt(Math.trunc(d));
  }
  const p = decodeDecimal(input as Decimal128);
  if (p.kind === 'nan') throw conversionFailure(`Attempt to convert NaN value to integer type ${NO_ON_ERROR}`);
  if (p.kind === 'inf') throw conversionFailure(`Attempt to convert infinity value to integer type ${NO_ON_ERROR}`);
  let c = p.coefficient;
  if (p.exponent >= 0) {
    if (c !== 0n && p.exponent > 40) return p.negative ? -(2n ** 130n) : 2n ** 130n;
    c *= 10n ** BigInt(p.exponent);
  } else c /= 10n ** BigInt(-p.exponent);
  return p.negative ? -c : c;
}

const INTEGER = /^[+-]?\d+$/;

function parseInteger(s: string, min: bigint, max: bigint): bigint {
  if (/^[+-]?0[xX]/.test(s)) throw conversionFailure(`Illegal hexadecimal input ${NO_ON_ERROR}: ${s}`);
  if (!INTEGER.test(s)) {
    throw conversionFailure(`Failed to parse number '${s}' ${NO_ON_ERROR}: ${s === '' ? 'No digits' : 'Did not consume whole string.'}`);
  }
  const n = BigInt(s);
  if (n < min || n > max) throw conversionFailure(`Failed to parse number '${s}' ${NO_ON_ERROR}: Overflow`);
  return n;
}

function invalidLength(b: Binary, length: number): Error {
  return conversionFailure(`Failed to convert '${docValueToString(b)}' to number in $convert because of invalid length: ${length}`);
}

function integerFromBinData(b: Binary, opts: ConvertOptions, sizes: readonly number[]): bigint {
  const bytes = binDataBytes(b);
  if (!sizes.includes(bytes.length)) throw invalidLength(b, bytes.length);
  return readSigned(bytes, opts.littleEndian)!;
}

const MIN_NORMAL_DOUBLE = 2 ** -1022;
const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

function integer(input: unknown, opts: ConvertOptions, min: bigint, max: bigint, sizes: readonly number[]): bigint {
  switch (bsonTypeOf(input)) {
    case 'int':
    case 'long': {
      const n = typeof input === 'number' ? BigInt(input) : (input as Long).toBigInt();
      if (n < min || n > max) throw overflow(input);
      return n;
    }
    case 'double':
    case 'decimal': {
      const n = truncated(input);
      if (n < min || n > max) throw overflow(input);
      return n;
    }
    case 'bool':
      return input === true ? 1n : 0n;
    case 'string':
      return parseInteger(input as string, min, max);
    case 'binData':
      return integerFromBinData(input as Binary, opts, sizes);
    case 'date':
      if (opts.target === 'long') return BigInt((input as Date).getTime());
      throw unsupported(input, opts.target);
    default:
      throw unsupported(input, opts.target);
  }
}

/** `$toInt`, `$convert` to 'int'. */
export function convertToInt(input: unknown, opts: ConvertOptions): number {
  return Number(integer(input, opts, INT_MIN, INT_MAX, [1, 2, 4]));
}

/** `$toLong`, `$convert` to 'long'. */
export function convertToLong(input: unknown, opts: ConvertOptions): Long {
  return Long.fromBigInt(integer(input, opts, LONG_MIN, LONG_MAX, [1, 2, 4, 8]));
}

const DECIMAL_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?\d+))?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

function hexFloat(m: RegExpExecArray): number | undefined {
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return undefined;
  const digits = int + frac;
  let value = 0;
  for (const ch of digits) value = value * 16 + parseInt(ch, 16);
  const exp = (m[4] === undefined ? 0 : Number(m[4])) - 4 * frac.length;
  value *= 2 ** exp;
  return m[1] === '-' ? -value : value;
}

/** strtod's reading of `s`, undefined when it does not consume the whole string or is out of range. */
export function parseDouble(s: string): number | undefined {
  const special = SPECIAL.exec(s);
  if (special !== null) {
    const v = special[2]!.toLowerCase() === 'nan' ? NaN : Infinity;
    return special[1] === '-' ? -v : v;
  }
  let d: number | undefined;
  let nonZero: boolean;
  if (DECIMAL_FLOAT.test(s)) {
    d = Number(s);
    nonZero = /[1-9]/.test(s.replace(/[eE].*$/, ''));
  } else {
    const m = HEX_FLOAT.exec(s);
    if (m === null || (m[4] === undefined && /[pP]/.test(s))) return undefined;
    d = hexFloat(m);
    if (d === undefined) return undefined;
    nonZero = /[1-9a-fA-F]/.test((m[2] ?? '') + (m[3] ?? ''));
  }
  if (!Number.isFinite(d) || (d === 0 && nonZero)) return undefined;
  return d;
}

/** `$toDouble`, `$convert` to 'double'. */
export function convertToDouble(input: unknown, opts: ConvertOptions): unknown {
  switch (bsonTypeOf(input)) {
    case 'double':
      return makeDouble(toDouble(input));
    case 'int':
    case 'long':
      return makeDouble(toDouble(input));
    case 'decimal': {
      // Overflow and underflow (a tiny result that is inexact) fail; plain rounding does not.
      const p = decodeDecimal(input as Decimal128);
      const d = toDouble(input);
      if (p.kind === 'finite') {
        if (!Number.isFinite(d)) throw overflow(input);
        if (Math.abs(d) < MIN_NORMAL_DOUBLE && compareParts(doubleToExactParts(d), p) !== 0) throw overflow(input);
      }
      return makeDouble(d);
    }
    case 'bool':
      return makeDouble(input === true ? 1 : 0);
    case 'date':
      return makeDouble((input as Date).getTime());
    case 'string': {
      const s = input as string;
      const d = parseDouble(s);
      if (d === undefined) {
        if (/^[+-]?0[xX]/.test(s) === false && DECIMAL_FLOAT.test(s)) {
          throw conversionFailure(`Failed to parse number '${s}' ${NO_ON_ERROR}: Out of range`);
        }
        throw conversionFailure(`Failed to parse number '${s}' ${NO_ON_ERROR}: Did not consume whole string.`);
      }
      return makeDouble(d);
    }
    case 'binData': {
      const b = input as Binary;
      const bytes = binDataBytes(b);
      const d = readFloat(bytes, opts.littleEndian);
      if (d === undefined) throw invalidLength(b, bytes.length);
      return makeDouble(d);
    }
    default:
      throw unsupported(input, opts.target);
  }
}

const DECIMAL_TEXT = /^([+-]?)(?:(\d+)\.?(\d*)|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const DECIMAL_READ_DIGITS = 34;
const DECIMAL_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Decimal128's reading of `s` (34 significant digits kept), undefined when invalid or out of range. */
export function parseDecimal(s: string): Decimal128 | undefined {
  const special = DECIMAL_SPECIAL.exec(s);
  if (special !== null) {
    if (special[2]!.toLowerCase() === 'nan') {
      const nan = encodeDecimal({ kind: 'nan' });
      if (special[1] !== '-') return nan;
      const bytes = Uint8Array.from(nan.bytes);
      bytes[15] = bytes[15]! | 0x80;
      return new Decimal128(bytes);
    }
    return encodeDecimal({ kind: 'inf', negative: special[1] === '-' });
  }
  const m = DECIMAL_TEXT.exec(s);
  if (m === null) return undefined;
  const negative = m[1] === '-';
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? m[4] ?? '';
  const exp = m[5] === undefined ? 0 : Number(m[5]);
  let digits = (intPart + fracPart).replace(/^0+(?=\d)/, '');
  let exponent = exp - fracPart.length;
  // mongod 8.2 keeps the first 34 significant digits of a longer string and drops the rest
  // ("1.00000000000000000000000000000000099999" reads as 1.000000000000000000000000000000000).
  if (digits.length > DECIMAL_READ_DIGITS) {
    exponent += digits.length - DECIMAL_READ_DIGITS;
    digits = digits.slice(0, DECIMAL_READ_DIGITS);
  }
  const coefficient = BigInt(digits === '' ? '0' : digits);
  const parts: DecimalParts = { kind: 'finite', negative, coefficient, exponent };
  const d = encodeDecimal(parts);
  const back = decodeDecimal(d);
  if (back.kind !== 'finite') return undefined;
  if (coefficient !== 0n && back.coefficient === 0n) return undefined;
  return d;
}

/** `$toDecimal`, `$convert` to 'decimal'. */
export function convertToDecimal(input: unknown, opts: ConvertOptions): Decimal128 {
  switch (bsonTypeOf(input)) {
    case 'decimal':
      return input as Decimal128;
    case 'double':
      return encodeDecimal(doubleToDecimalParts(toDouble(input)));
    case 'int':
    case 'long': {
      const n = typeof input === 'number' ? BigInt(input) : (input as Long).toBigInt();
      return encodeDecimal({ kind: 'finite', negative: n < 0n, coefficient: n < 0n ? -n : n, exponent: 0 });
    }
    case 'bool':
      return encodeDecimal({ kind: 'finite', negative: false, coefficient: input === true ? 1n : 0n, exponent: 0 });
    case 'date': {
      const n = BigInt((input as Date).getTime());
      return encodeDecimal({ kind: 'finite', negative: n < 0n, coefficient: n < 0n ? -n : n, exponent: 0 });
    }
    case 'string': {
      const d = parseDecimal(input as string);
      if (d === undefined) {
        throw conversionFailure(`Failed to parse number '${input as string}' ${NO_ON_ERROR}: Failed to parse string to decimal`);
      }
      return d;
    }
    default:
      throw unsupported(input, opts.target);
  }
}
