/**
 * What the trigonometric operators share (expression.cpp, evaluateBoundedTrigonometric and
 * evaluateUnboundedTrigonometric): one numeric argument (null or missing makes null, a
 * non-number 28765); Int32, Int64 and Double compute in double and give a Double, a Decimal128
 * gives a Decimal128; a bounded function refuses an argument outside its domain (50989), NaN
 * passing through unchanged.
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { compareParts, decodeDecimal, encodeDecimal, type DecimalParts } from '../../../values/decimal.js';
import { decimalUnary, type DecimalUnary } from '../../../values/decimal_math.js';
import { formatDoubleShort } from '../../../values/format.js';
import { doubleOf, multiplyParts, numKind, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** A domain: its ends, whether each is included, and how mongod writes it. */
export interface Domain {
  readonly low: number;
  readonly lowIncluded: boolean;
  readonly high: number;
  readonly highIncluded: boolean;
  readonly text: string;
}

/** (-inf, inf): every finite number. */
export const FINITE: Domain = { low: -Infinity, lowIncluded: false, high: Infinity, highIncluded: false, text: '(-inf,inf)' };
/** [-1, 1]. */
export const MINUS_ONE_TO_ONE: Domain = { low: -1, lowIncluded: true, high: 1, highIncluded: true, text: '[-1,1]' };
/** [1, inf]. */
export const ONE_TO_INF: Domain = { low: 1, lowIncluded: true, high: Infinity, highIncluded: true, text: '[1,inf]' };

function endParts(x: number): DecimalParts {
  if (!Number.isFinite(x)) return { kind: 'inf', negative: x < 0 };
  return { kind: 'finite', negative: x < 0, coefficient: BigInt(Math.abs(x)), exponent: 0 };
}

/** True when the comparisons of the value with the domain's low and high ends put it inside. */
function inside(lo: number, hi: number, d: Domain): boolean {
  return (lo > 0 || (lo === 0 && d.lowIncluded)) && (hi < 0 || (hi === 0 && d.highIncluded));
}

function compareDouble(x: number, end: number): number {
  return x < end ? -1 : x > end ? 1 : 0;
}

function outOfDomain(name: string, shown: string, d: Domain): never {
  throw new CommandError(50989, `cannot apply ${name} to ${shown}, value must be in ${d.text}`);
}

/** A trigonometric operator: `doubleFn` for doubles, decimal.js's `decimalFn` for Decimal128, an optional domain. */
export function trigOperator(
  name: `$${string}`,
  doubleFn: (x: number) => number,
  decimalFn: DecimalUnary,
  domain: Domain | null,
): ExpressionOperator {
  return {
    name,
    parse(arg, scope) {
      const [a] = scope.parseFixedArguments(name, arg, 1) as [Evaluator];
      const low = domain === null ? null : endParts(domain.low);
      const high = domain === null ? null : endParts(domain.high);
      return (frame) => {
        const v = a(frame);
        if (isNullish(v)) return null;
        const kind = numKind(v);
        if (kind === null) throw new CommandError(28765, `${name} only supports numeric types, not ${typeName(v)}`);
        if (kind === 'decimal') {
          const p = decodeDecimal(v as Decimal128);
          if (p.kind === 'nan' && domain !== null) return v;
          if (domain !== null && low !== null && high !== null && !inside(compareParts(p, low), compareParts(p, high), domain)) {
            outOfDomain(name, (v as Decimal128).toString(), domain);
          }
          return decimalUnary(decimalFn, v as Decimal128);
        }
        const x = toDouble(v);
        if (Number.isNaN(x) && domain !== null) return v;
        if (domain !== null && !inside(compareDouble(x, domain.low), compareDouble(x, domain.high), domain)) {
          outOfDomain(name, formatDoubleShort(x), domain);
        }
        return doubleOf(doubleFn(x));
      };
    },
  };
}

/** π/180 and 180/π: as doubles, and as Decimal128 parts (34 digits, half-even). */
const PI = 3.141592653589793;
const PI_OVER_180: DecimalParts = { kind: 'finite', negative: false, coefficient: 1745329251994329576923690768488613n, exponent: -35 };
const D180_OVER_PI: DecimalParts = { kind: 'finite', negative: false, coefficient: 5729577951308232087679815481410517n, exponent: -32 };

/** `$degreesToRadians` / `$radiansToDegrees` (doDegreeRadiansConversion): a product by the factor. */
export function angleConversionOperator(name: '$degreesToRadians' | '$radiansToDegrees'): ExpressionOperator {
  const toRadians = name === '$degreesToRadians';
  const doubleFactor = toRadians ? PI / 180 : 180 / PI;
  const decimalFactor = toRadians ? PI_OVER_180 : D180_OVER_PI;
  return {
    name,
    parse(arg, scope) {
      const [a] = scope.parseFixedArguments(name, arg, 1) as [Evaluator];
      return (frame) => {
        const v = a(frame);
        if (isNullish(v)) return null;
        const kind = numKind(v);
        if (kind === null) throw new CommandError(28765, `${name} only supports numeric types, not ${typeName(v)}`);
        if (kind === 'decimal') return encodeDecimal(multiplyParts(decodeDecimal(v as Decimal128), decimalFactor));
        return doubleOf(toDouble(v) * doubleFactor);
      };
    },
  };
}
