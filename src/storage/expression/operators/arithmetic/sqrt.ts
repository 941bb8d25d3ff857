/**
 * `$sqrt` (ExpressionSqrt): the square root, a Double (a Decimal128 for a Decimal128); a
 * negative number is 28714, NaN gives NaN; null or missing makes null.
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { decodeDecimal } from '../../../values/decimal.js';
import { decimalUnary } from '../../../values/decimal_math.js';
import { doubleOf, toDouble } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { parseNumericUnary } from './_internal.js';

function negative(): never {
  throw new CommandError(28714, "$sqrt's argument must be greater than or equal to 0");
}

/** `{$sqrt: <number>}`. */
export const sqrt: ExpressionOperator = {
  name: '$sqrt',
  parse(arg, scope) {
    return parseNumericUnary('$sqrt', arg, scope, (v, kind) => {
      if (kind === 'decimal') {
        const p = decodeDecimal(v as Decimal128);
        if (p.kind !== 'nan' && p.negative && (p.kind === 'inf' || p.coefficient !== 0n)) negative();
        return decimalUnary('sqrt', v as Decimal128);
      }
      const d = toDouble(v);
      if (d < 0) negative();
      return doubleOf(Math.sqrt(d));
    });
  },
};
