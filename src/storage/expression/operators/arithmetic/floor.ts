/**
 * `$floor` (ExpressionFloor): the largest integer not above the number, in its type (Int32 and
 * Int64 unchanged; a Decimal128 quantized at 10^0 toward -infinity, an infinity making NaN);
 * null or missing makes null.
 */
import { doubleOf, toDouble } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { parseNumericUnary, quantizeDecimalToInteger } from './_internal.js';

/** `{$floor: <number>}`. */
export const floor: ExpressionOperator = {
  name: '$floor',
  parse(arg, scope) {
    return parseNumericUnary('$floor', arg, scope, (v, kind) => {
      if (kind === 'double') return doubleOf(Math.floor(toDouble(v)));
      if (kind === 'decimal') return quantizeDecimalToInteger(v, 'towardNegative');
      return v;
    });
  },
};
