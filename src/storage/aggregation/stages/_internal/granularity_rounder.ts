/**
 * The granularities of `$bucketAuto` (mongo/src/mongo/db/pipeline/granularity_rounder*.cpp):
 * rounding a non-negative number up or down to a preferred-number series (Renard R5...R80, the
 * 1-2-5 series, the E series E6...E192) or to a power of two. A series is its base values over one
 * decade; a number is scaled by powers of ten until it falls in the decade the series spans, as
 * mongod does: doubles by repeated multiplication and division by 10.0 (so the results are the
 * same doubles), Decimal128 values by decimal scaling (so the results are the same decimals).
 * Zero rounds to itself in every series.
 */
import { Decimal128, makeDouble } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import type { ExpressionContext } from '../../../expression/context.js';
import { CONSTANT_FRAME } from '../../../expression/value.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { compareValues } from '../../../values/compare.js';
import { isNumber, toBigInt, toDouble } from '../../../values/numeric.js';

/** A granularity: rounds a non-negative number up (to the next value strictly above) or down (strictly below). */
export interface GranularityRounder {
  readonly name: string;
  roundUp(value: unknown): unknown;
  roundDown(value: unknown): unknown;
}

const SERIES: Readonly<Record<string, readonly number[]>> = {
  R5: [10, 16, 25, 40, 63],
  R10: [100, 125, 160, 200, 250, 315, 400, 500, 630, 800],
  R20: [100, 112, 125, 140, 160, 180, 200, 224, 250, 280, 315, 355, 400, 450, 500, 560, 630, 710, 800, 900],
  R40: [
    100, 106, 112, 118, 125, 132, 140, 150, 160, 170, 180, 190, 200, 212, 224, 236, 250, 265, 280, 300, 315, 355, 375, 400, 425, 450, 475,
    500, 530, 560, 600, 630, 670, 710, 750, 800, 850, 900, 950,
  ],
  R80: [
    103, 109, 115, 122, 128, 136, 145, 155, 165, 175, 185, 195, 206, 218, 230, 243, 258, 272, 290, 307, 325, 345, 365, 387, 412, 437, 462,
    487, 515, 545, 575, 615, 650, 690, 730, 775, 825, 875, 925, 975,
  ],
  '1-2-5': [10, 20, 50],
  E6: [10, 15, 22, 33, 47, 68],
  E12: [10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82],
  E24: [10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75, 82, 91],
  E48: [
    100, 105, 110, 115, 121, 127, 133, 140, 147, 154, 162, 169, 178, 187, 196, 205, 215, 226, 237, 249, 261, 274, 287, 301, 316, 332, 348,
    365, 383, 402, 422, 442, 464, 487, 511, 536, 562, 590, 619, 649, 681, 715, 750, 787, 825, 866, 909, 953,
  ],
  E96: [
    100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137, 140, 143, 147, 150, 154, 158, 162, 165, 169, 174, 178, 182, 187,
    191, 196, 200, 205, 210, 215, 221, 226, 232, 237, 243, 249, 255, 261, 267, 274, 280, 287, 294, 301, 309, 316, 324, 332, 340, 348, 357,
    365, 374, 383, 392, 402, 412, 422, 432, 442, 453, 464, 475, 487, 499, 511, 523, 536, 549, 562, 576, 590, 604, 619, 634, 649, 665, 681,
    698, 715, 732, 750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976,
  ],
  E192: [
    100, 101, 102, 104, 105, 106, 107, 109, 110, 111, 113, 114, 115, 117, 118, 120, 121, 123, 124, 126, 127, 129, 130, 132, 133, 135, 137,
    138, 140, 142, 143, 145, 147, 149, 150, 152, 154, 156, 158, 160, 162, 164, 165, 167, 169, 172, 174, 176, 178, 180, 182, 184, 187, 189,
    191, 193, 196, 198, 200, 203, 205, 208, 210, 213, 215, 218, 221, 223, 226, 229, 232, 234, 237, 240, 243, 246, 249, 252, 255, 258, 261,
    264, 267, 271, 274, 277, 280, 284, 287, 291, 294, 298, 301, 305, 309, 312, 316, 320, 324, 328, 332, 336, 340, 344, 348, 352, 357, 361,
    365, 370, 374, 379, 383, 388, 392, 397, 402, 407, 412, 417, 422, 427, 432, 437, 442, 448, 453, 459, 464, 470, 475, 481, 487, 493, 499,
    505, 511, 517, 523, 530, 536, 542, 549, 556, 562, 569, 576, 583, 590, 597, 604, 612, 619, 626, 634, 642, 649, 657, 665, 673, 681, 690,
    698, 706, 715, 723, 732, 741, 750, 759, 768, 777, 787, 796, 806, 816, 825, 835, 845, 856, 866, 876, 887, 898, 909, 920, 931, 942, 953,
    965, 976, 988,
  ],
};

/** The rounders' own checks (unreachable through `$bucketAuto`, which checks its keys first). */
function checkNonNegative(value: unknown, codes: readonly [number, number, number]): number {
  if (!isNumber(value)) throw new CommandError(codes[0], `A granularity rounder can only round numeric values, but found type: ${bsonTypeOf(value)}`);
  const d = toDouble(value);
  if (Number.isNaN(d)) throw new CommandError(codes[1], 'A granularity rounder cannot round NaN');
  if (d < 0) throw new CommandError(codes[2], 'A granularity rounder can only round non-negative numbers');
  return d;
}

const PREFERRED_CODES = [40262, 40263, 40268] as const;

/**
 * `series[i] * 10^k` as mongod's Decimal128 arithmetic writes it: a multiplier scaled up is an
 * integer (coefficient `10^k`, exponent 0), one scaled down is `1E-k`.
 */
function scaledDecimal(s: number, k: number): Decimal128 {
  return Decimal128.fromString(k >= 0 ? `${s}${'0'.repeat(k)}` : `${s}E${k}`);
}

function preferredNumbers(name: string, series: readonly number[]): GranularityRounder {
  const first = series[0]!;
  const last = series[series.length - 1]!;
  const roundUpDouble = (number: number): number => {
    let m = 1.0;
    while (number >= last * m) m *= 10.0;
    while (number < first * m) {
      const previousMin = first * m;
      m /= 10.0;
      if (number >= last * m) return previousMin;
    }
    for (const s of series) if (number < s * m) return s * m;
    return last * m;
  };
  const roundDownDouble = (number: number): number => {
    let m = 1.0;
    while (number <= first * m) m /= 10.0;
    while (number > last * m) {
      const previousMax = last * m;
      m *= 10.0;
      if (number <= first * m) return previousMax;
    }
    let i = 0;
    while (i < series.length && series[i]! * m < number) i++;
    return series[i - 1]! * m;
  };
  const cmp = (a: unknown, b: unknown): number => compareValues(a, b);
  const roundUpDecimal = (number: Decimal128): Decimal128 => {
    let k = 0;
    while (cmp(number, scaledDecimal(last, k)) >= 0) k++;
    while (cmp(number, scaledDecimal(first, k)) < 0) {
      const previousMin = scaledDecimal(first, k);
      k--;
      if (cmp(number, scaledDecimal(last, k)) >= 0) return previousMin;
    }
    for (const s of series) if (cmp(number, scaledDecimal(s, k)) < 0) return scaledDecimal(s, k);
    return scaledDecimal(last, k);
  };
  const roundDownDecimal = (number: Decimal128): Decimal128 => {
    let k = 0;
    while (cmp(number, scaledDecimal(first, k)) <= 0) k--;
    while (cmp(number, scaledDecimal(last, k)) > 0) {
      const previousMax = scaledDecimal(last, k);
      k++;
      if (cmp(number, scaledDecimal(first, k)) <= 0) return previousMax;
    }
    let i = 0;
    while (i < series.length && cmp(scaledDecimal(series[i]!, k), number) < 0) i++;
    return scaledDecimal(series[i - 1]!, k);
  };
  return {
    name,
    roundUp(value) {
      const d = checkNonNegative(value, PREFERRED_CODES);
      // Zero is its own rounding; an infinity has no decade to scale to.
      if (d === 0 || !Number.isFinite(d)) return value;
      return value instanceof Decimal128 ? roundUpDecimal(value) : makeDouble(roundUpDouble(d));
    },
    roundDown(value) {
      const d = checkNonNegative(value, PREFERRED_CODES);
      if (d === 0 || !Number.isFinite(d)) return value;
      return value instanceof Decimal128 ? roundDownDecimal(value) : makeDouble(roundDownDouble(d));
    },
  };
}

const POWERS_OF_TWO_CODES = [40265, 40266, 40267] as const;

/** `2^exponent` as `$pow` computes it (an Int32 base; the exponent's type decides the result's). */
function powerOfTwo(exponent: unknown, expressions: ExpressionContext): unknown {
  return expressions.parse({ $pow: [2, { $literal: exponent }] })(CONSTANT_FRAME);
}

function powersOfTwo(expressions: ExpressionContext): GranularityRounder {
  const exponentOf = (value: unknown, up: boolean): unknown => {
    const d = toDouble(value);
    if (value instanceof Decimal128) {
      const e = up ? Math.floor(Math.log2(d)) + 1 : Math.ceil(Math.log2(d)) - 1;
      return Decimal128.fromString(String(e));
    }
    // mongod makes the exponent of a double an int.
    if (bsonTypeOf(value) === 'double') return up ? Math.floor(Math.log2(d)) + 1 : Math.ceil(Math.log2(d)) - 1;
    const n = toBigInt(value);
    const bits = n.toString(2).length;
    if (up) return bits;
    // A power of two rounds down to the next smaller power.
    return (n & (n - 1n)) === 0n ? bits - 2 : bits - 1;
  };
  return {
    name: 'POWERSOF2',
    roundUp(value) {
      const d = checkNonNegative(value, POWERS_OF_TWO_CODES);
      if (d === 0 || !Number.isFinite(d)) return value;
      return powerOfTwo(exponentOf(value, true), expressions);
    },
    roundDown(value) {
      const d = checkNonNegative(value, POWERS_OF_TWO_CODES);
      if (d === 0 || !Number.isFinite(d)) return value;
      return powerOfTwo(exponentOf(value, false), expressions);
    },
  };
}

/** The rounder named `name` (40257 for an unknown one). */
export function granularityRounder(name: string, expressions: ExpressionContext): GranularityRounder {
  if (name === 'POWERSOF2') return powersOfTwo(expressions);
  const series = Object.hasOwn(SERIES, name) ? SERIES[name] : undefined;
  if (series === undefined) throw new CommandError(40257, `Unknown rounding mode for granularity: ${name}`);
  return preferredNumbers(name, series);
}
