/**
 * `$mod` (ExpressionMod): the remainder, with the sign of the dividend, in the widest numeric
 * type of the two; a zero divisor is 16610 (5733415 for a Decimal128); null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { doubleOf, longOf, modDecimal, numKind, toBigInt, toDouble, widest } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** `$mod` of two evaluated operands. */
export function modValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    switch (widest(kl, kr)) {
      case 'decimal': {
        const r = modDecimal(lhs, rhs);
        if (r === null) throw new CommandError(5733415, "can't $mod by zero");
        return r;
      }
      case 'double': {
        const d = toDouble(rhs);
        if (d === 0) throw new CommandError(16610, "can't $mod by zero");
        return doubleOf(toDouble(lhs) % d);
      }
      case 'long': {
        const d = toBigInt(rhs);
        if (d === 0n) throw new CommandError(16610, "can't $mod by zero");
        return longOf(d === -1n ? 0n : toBigInt(lhs) % d);
      }
      default: {
        const d = rhs as number;
        if (d === 0) throw new CommandError(16610, "can't $mod by zero");
        const r = (lhs as number) % d;
        return r === 0 ? 0 : r;
      }
    }
  }
  if (isNullish(lhs) || isNullish(rhs)) return null;
  throw new CommandError(16611, `$mod only supports numeric types, not ${typeName(lhs)} and ${typeName(rhs)}`);
}

/** `{$mod: [<dividend>, <divisor>]}`. */
export const mod: ExpressionOperator = {
  name: '$mod',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$mod', arg, 2) as [Evaluator, Evaluator];
    return (frame) => modValues(a(frame), b(frame));
  },
};
