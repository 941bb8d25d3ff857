/**
 * `$exp` (ExpressionExp): e to the power of the number, a Double (a Decimal128 for a
 * Decimal128); null or missing makes null.
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { decimalUnary } from '../../../values/decimal_math.js';
import { doubleOf, toDouble } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { parseNumericUnary } from './_internal.js';

/** `{$exp: <number>}`. */
export const exp: ExpressionOperator = {
  name: '$exp',
  parse(arg, scope) {
    return parseNumericUnary('$exp', arg, scope, (v, kind) =>
      kind === 'decimal' ? decimalUnary('exp', v as Decimal128) : doubleOf(Math.exp(toDouble(v))),
    );
  },
};
