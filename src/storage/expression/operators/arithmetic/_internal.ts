/**
 * What several arithmetic operators share: the one-numeric-argument evaluation of mongod's
 * `evaluateSingleNumericArg` (null or missing makes null, a non-number 28765), and `$round` /
 * `$trunc` (`evaluateRoundOrTrunc`: an optional place in [-20, 100], the value quantized as a
 * Decimal128 at that place and returned in its own type).
 */
import { Long, type Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { compareParts, decodeDecimal, doubleToExactParts, encodeDecimal, roundParts } from '../../../values/decimal.js';
import { decimalUnary, partsToDouble, quantizeParts, type QuantizeRounding } from '../../../values/decimal_math.js';
import { doubleOf, INT64_MAX, INT64_MIN, numKind, toBigInt, toDouble, TWO_POW_63, type NumKind } from '../../../values/numeric.js';
import { formatDoubleShort } from '../../../values/format.js';
import type { Evaluator, ExpressionOperator, ParseScope } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** The parse of `{<name>: <number>}` whose evaluator applies `fn` to a number (28765 otherwise). */
export function parseNumericUnary(
  name: string,
  arg: unknown,
  scope: ParseScope,
  fn: (v: unknown, kind: NumKind) => unknown,
): Evaluator {
  const [a] = scope.parseFixedArguments(name, arg, 1) as [Evaluator];
  return (frame) => {
    const v = a(frame);
    if (isNullish(v)) return null;
    const kind = numKind(v);
    if (kind === null) throw new CommandError(28765, `${name} only supports numeric types, not ${typeName(v)}`);
    return fn(v, kind);
  };
}

/**
 * `quantize(v, 10^0)` of a Decimal128 (`$ceil`, `$floor`): NaN for an infinity and for a value
 * whose integer needs more than 34 digits, as IEEE says.
 */
export function quantizeDecimalToInteger(v: unknown, rounding: QuantizeRounding): Decimal128 {
  return encodeDecimal(quantizeParts(decodeDecimal(v as Decimal128), 0, rounding, 'nan'));
}

/** `Value::coerceToLong` of a place (16004 for a non-number, 31109 for a double outside Int64). */
function coercePlace(v: unknown): bigint {
  switch (numKind(v)) {
    case 'int':
    case 'long':
      return toBigInt(v);
    case 'double': {
      const d = toDouble(v);
      if (!(d >= -TWO_POW_63 && d < TWO_POW_63)) {
        throw new CommandError(31109, `Can't coerce out of range value ${formatDoubleShort(d)} to long`);
      }
      return BigInt(Math.trunc(d));
    }
    case 'decimal': {
      const p = decodeDecimal(v as Decimal128);
      if (p.kind !== 'finite') return INT64_MIN;
      const q = quantizeParts(p, 0, 'towardZero');
      if (q.kind !== 'finite') return INT64_MIN;
      const n = q.negative ? -q.coefficient : q.coefficient;
      return n < INT64_MIN || n > INT64_MAX ? INT64_MIN : n;
    }
    default:
      throw new CommandError(16004, `can't convert from BSON type ${typeName(v)} to long`);
  }
}

/** `Value::integral`: a whole number within Int32. */
function integral(v: unknown): boolean {
  switch (numKind(v)) {
    case 'int':
      return true;
    case 'long': {
      const b = toBigInt(v);
      return b >= -2147483648n && b <= 2147483647n;
    }
    case 'double': {
      const d = toDouble(v);
      return Number.isInteger(d) && d >= -2147483648 && d <= 2147483647;
    }
    case 'decimal': {
      const p = decodeDecimal(v as Decimal128);
      if (p.kind !== 'finite') return false;
      const q = quantizeParts(p, 0, 'towardZero');
      if (q.kind !== 'finite') return false;
      if (compareParts(q, p) !== 0) return false;
      const n = q.negative ? -q.coefficient : q.coefficient;
      return n >= -2147483648n && n <= 2147483647n;
    }
    default:
      return false;
  }
}

/** `$round` or `$trunc` of an evaluated number at an evaluated place. */
function roundOrTruncValue(name: string, rounding: QuantizeRounding, v: unknown, place: bigint): unknown {
  const exponent = -Number(place);
  switch (numKind(v)) {
    case 'decimal': {
      const p = decodeDecimal(v as Decimal128);
      if (p.kind === 'inf') return v;
      return encodeDecimal(quantizeParts(p, exponent, rounding));
    }
    case 'double': {
      const fast = roundDoubleFast(toDouble(v), Number(place), rounding);
      if (fast !== undefined) return doubleOf(fast);
      const p = roundParts(doubleToExactParts(toDouble(v)), 34);
      if (p.kind === 'inf') return v;
      return doubleOf(partsToDouble(quantizeParts(p, exponent, rounding)));
    }
    default: {
      if (place >= 0n) return v;
      const n = toBigInt(v);
      const q = quantizeParts(
        { kind: 'finite', negative: n < 0n, coefficient: n < 0n ? -n : n, exponent: 0 },
        exponent,
        rounding,
      );
      let out: bigint | null = null;
      if (q.kind === 'finite') {
        const whole = q.coefficient * 10n ** BigInt(q.exponent);
        const signed = q.negative ? -whole : whole;
        if (signed >= INT64_MIN && signed <= INT64_MAX) out = signed;
      }
      if (out === null) {
        throw new CommandError(
          51080,
          `invalid conversion from Decimal128 result in ${name} resulting from arguments: [${n}, ${place}]`,
        );
      }
      if (numKind(v) === 'long' || out > 2147483647n) return longOfBig(out);
      // mongod casts to int: a result below the Int32 range wraps as its static_cast does.
      return Number(BigInt.asIntN(32, out));
    }
  }
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * A double rounded at `place` without the exact decimal route, when the answer cannot differ
 * from it: `x·10^place` well inside 2^52 and clear of the boundary where the exact value (and so
 * its 34-digit Decimal128) could fall on the other side (a tie for half-even, an integer for
 * truncation). Then the integer is certain, and `n / 10^place` of two exact doubles is the
 * double nearest to the decimal result, as mongod's conversion back gives. Undefined otherwise.
 */
function roundDoubleFast(x: number, place: number, rounding: QuantizeRounding): number | undefined {
  if (place < 0 || place > 22 || (rounding !== 'halfEven' && rounding !== 'towardZero')) return undefined;
  const scale = POWERS_OF_TEN[place]!;
  const s = Math.abs(x) * scale;
  if (!(s < 2 ** 52)) return undefined;
  const whole = Math.floor(s);
  const frac = s - whole;
  let n: number;
  if (rounding === 'halfEven') {
    if (Math.abs(frac - 0.5) < 1e-6) return undefined;
    n = frac > 0.5 ? whole + 1 : whole;
  } else {
    if (frac < 1e-6 || frac > 1 - 1e-6) return undefined;
    n = whole;
  }
  return (x < 0 || Object.is(x, -0) ? -n : n) / scale;
}

function longOfBig(b: bigint): Long {
  return Long.fromBigInt(b);
}

/** `$round` (half to even) or `$trunc` (toward zero): `{<name>: <number>}` or `[<number>, <place>]`. */
export function roundOrTruncOperator(name: `$${string}`, rounding: QuantizeRounding): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const args = scope.parseArguments(arg);
      if (args.length < 1 || args.length > 2) {
        throw new CommandError(
          28667,
          `Expression ${name} takes at least 1 arguments, and at most 2, but ${args.length} were passed in.`,
        );
      }
      const [a, b] = args as [Evaluator, Evaluator | undefined];
      return (frame) => {
        const v = a(frame);
        if (isNullish(v)) return null;
        if (numKind(v) === null) throw new CommandError(51081, `${name} only supports numeric types, not ${typeName(v)}`);
        let place = 0n;
        if (b !== undefined) {
          const p = b(frame);
          if (isNullish(p)) return null;
          place = coercePlace(p);
          if (!integral(p)) throw new CommandError(51082, `precision argument to  ${name} must be a integral value`);
          if (place < -20n || place > 100n) {
            throw new CommandError(51083, `cannot apply ${name} with precision value ${place} value must be in [-20, 100]`);
          }
        }
        return roundOrTruncValue(name, rounding, v, place);
      };
    },
  };
}

/**
 * `$ln` and `$log10`: a positive Decimal128's logarithm as a Decimal128; anything else through a
 * double, where zero and the negatives are `code` ("... must be a positive number, but is <x>").
 */
export function logOperator(name: '$ln' | '$log10', fn: 'ln' | 'log10', code: number): ExpressionOperator {
  const doubleFn = fn === 'ln' ? Math.log : Math.log10;
  return {
    name,
    parse(arg, scope) {
      return parseNumericUnary(name, arg, scope, (v, kind) => {
        if (kind === 'decimal') {
          const p = decodeDecimal(v as Decimal128);
          if (p.kind !== 'nan' && !p.negative && (p.kind === 'inf' || p.coefficient !== 0n)) {
            return decimalUnary(fn, v as Decimal128);
          }
        }
        const d = toDouble(v);
        if (!(d > 0 || Number.isNaN(d))) {
          throw new CommandError(code, `${name}'s argument must be a positive number, but is ${formatDoubleShort(d)}`);
        }
        return doubleOf(doubleFn(d));
      });
    },
  };
}
