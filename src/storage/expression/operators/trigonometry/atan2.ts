/**
 * `$atan2` (ExpressionArcTangent2): the angle of the point (x, y), `atan2(y, x)` in radians, a
 * Double (a Decimal128 when either is one). Each argument is read in turn: null or missing
 * makes null, a non-number is 51044 (the first) or 51045 (the second).
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { encodeDecimal } from '../../../values/decimal.js';
import { decimalAtan2 } from '../../../values/decimal_math.js';
import { doubleOf, numKind, toDecimalParts, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `{$atan2: [<y>, <x>]}`. */
export const atan2: ExpressionOperator = {
  name: '$atan2',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$atan2', arg, 2) as [Evaluator, Evaluator];
    return (frame) => {
      const y = a(frame);
      if (isNullish(y)) return null;
      const ky = numKind(y);
      if (ky === null) throw new CommandError(51044, `$atan2 only supports numeric types, not ${typeName(y)}`);
      const x = b(frame);
      if (isNullish(x)) return null;
      const kx = numKind(x);
      if (kx === null) throw new CommandError(51045, `$atan2 only supports numeric types, not ${typeName(x)}`);
      if (ky === 'decimal' || kx === 'decimal') {
        return decimalAtan2(encodeDecimal(toDecimalParts(y)), encodeDecimal(toDecimalParts(x)) as Decimal128);
      }
      return doubleOf(Math.atan2(toDouble(y), toDouble(x)));
    };
  },
};
