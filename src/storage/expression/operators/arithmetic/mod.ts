/**
 * `$mod` (ExpressionMod): the remainder, with the sign of the dividend, in the widest numeric
 * type of the two; a zero divisor is 16610 (5733415 for a Decimal128; 4848403 for any type in SBE:
 * `EngineDependentError`); null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { EngineDependentError } from '../../engine_error.js';
import { doubleOf, longOf, modDecimal, numKind, toBigInt, toDouble, widest } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

/** The error of a zero divisor: `code` (16610, 5733415 for a Decimal128), 4848403 in SBE. */
const modByZero = (code: number): Error => new EngineDependentError(code, 4848403, "can't $mod by zero");

/** `$mod` of two evaluated operands. */
export function modValues(lhs: unknown, rhs: unknown): unknown {
  const kl = numKind(lhs);
  const kr = numKind(rhs);
  if (kl !== null && kr !== null) {
    switch (widest(kl, kr)) {
      case 'decimal': {
        const r = modDecimal(lhs, rhs);
        if (r === null) throw modByZero(5733415);
        return r;
      }
      case 'double': {
        const d = toDouble(rhs);
        if (d === 0) throw modByZero(16610);
        return doubleOf(toDouble(lhs) % d);
      }
      case 'long': {
        const d = toBigInt(rhs);
        if (d === 0n) throw modByZero(16610);
        return longOf(d === -1n ? 0n : toBigInt(lhs) % d);
      }
      default: {
        const d = rhs as number;
        if (d === 0) throw modByZero(16610);
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
