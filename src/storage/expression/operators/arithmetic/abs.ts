/**
 * `$abs` (ExpressionAbs): the absolute value in the argument's type (an Int32's may widen to an
 * Int64); the smallest Int64 is 28680; null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { encodeDecimal } from '../../../values/decimal.js';
import { doubleOf, intOrLong, longOf, numKind, toBigInt, toDecimalParts, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish } from '../../value.js';

/** `$abs` of an evaluated operand. */
export function absValue(v: unknown): unknown {
  if (isNullish(v)) return null;
  switch (numKind(v)) {
    case 'int':
      return intOrLong(toBigInt(v) < 0n ? -toBigInt(v) : toBigInt(v));
    case 'long': {
      const b = toBigInt(v);
      if (b === -(2n ** 63n)) throw new CommandError(28680, "can't take $abs of long long min");
      return longOf(b < 0n ? -b : b);
    }
    case 'double':
      return doubleOf(Math.abs(toDouble(v)));
    case 'decimal': {
      const p = toDecimalParts(v);
      return encodeDecimal(p.kind === 'nan' ? p : ({ ...p, negative: false } as typeof p));
    }
    default:
      throw new CommandError(28765, `$abs only supports numeric types, not ${bsonTypeOf(v)}`);
  }
}

/** `{$abs: <expression>}`. */
export const abs: ExpressionOperator = {
  name: '$abs',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$abs', arg, 1) as [Evaluator];
    return (frame) => absValue(a(frame));
  },
};
