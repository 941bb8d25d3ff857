/**
 * `$ceil` (ExpressionCeil): the smallest integer not below the number, in its type (Int32 and
 * Int64 unchanged; a Decimal128 quantized at 10^0 toward +infinity, an infinity making NaN);
 * null or missing makes null.
 */
import { doubleOf, toDouble } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { parseNumericUnary, quantizeDecimalToInteger } from './_internal.js';

/** `{$ceil: <number>}`. */
export const ceil: ExpressionOperator = {
  name: '$ceil',
  parse(arg, scope) {
    return parseNumericUnary('$ceil', arg, scope, (v, kind) => {
      if (kind === 'double') return doubleOf(Math.ceil(toDouble(v)));
      if (kind === 'decimal') return quantizeDecimalToInteger(v, 'towardPositive');
      return v;
    });
  },
};
