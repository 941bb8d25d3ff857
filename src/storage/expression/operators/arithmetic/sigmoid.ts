/**
 * `$sigmoid` (ExpressionSigmoid): `1 / (1 + e^-x)`, a Double (a Decimal128 for a Decimal128);
 * a non-number (an array too: the operand is never an argument list) is 14 TypeMismatch;
 * null or missing makes null.
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { decimalSigmoid } from '../../../values/decimal_math.js';
import { doubleOf, numKind, toDouble } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$sigmoid: <number>}`. */
export const sigmoid: ExpressionOperator = {
  name: '$sigmoid',
  parse(arg, scope) {
    // One operand, never an argument list: `{$sigmoid: [1]}` is the sigmoid of an array.
    const a = scope.parse(arg);
    return (frame) => {
      const v = a(frame);
      if (isNullish(v)) return null;
      const kind = numKind(v);
      if (kind === null) throw new CommandError('TypeMismatch', `$sigmoid only supports numeric types, not ${typeName(v)}`);
      if (kind === 'decimal') return decimalSigmoid(v as Decimal128);
      return doubleOf(1 / (1 + Math.exp(-toDouble(v))));
    };
  },
};
