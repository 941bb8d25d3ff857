/**
 * `$add` (expression.cpp, ExpressionAdd): the sum of its numeric arguments with BSON type
 * promotion; one argument may be a Date (the result is then a Date, milliseconds added, a
 * fractional number rounded half away from zero before it is added); null or missing makes null.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { addNumbers, fitsLong, numKind, toBigInt, toDouble, TWO_POW_63 } from '../../../values/numeric.js';
import type { ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** `$add` of already-evaluated operands. */
export function addValues(values: readonly unknown[]): unknown {
  let total: unknown = 0;
  let date: Date | null = null;
  for (const v of values) {
    if (isNullish(v)) return null;
    if (v instanceof Date) {
      if (date !== null) throw new CommandError(16612, 'only one date allowed in an $add expression');
      date = v;
      continue;
    }
    if (numKind(v) === null) {
      throw new CommandError('TypeMismatch', `$add only supports numeric or date types, not ${typeName(v)}`);
    }
    total = addNumbers(total, v);
  }
  if (date === null) return total;
  // The offset is rounded to whole milliseconds (half away from zero) before it is added.
  let offset: bigint;
  if (numKind(total) === 'double' || numKind(total) === 'decimal') {
    const d = roundHalfAwayFromZero(toDouble(total));
    if (!(d >= -TWO_POW_63 && d < TWO_POW_63)) throw new CommandError('Overflow', 'date overflow in $add');
    offset = BigInt(d);
  } else {
    offset = toBigInt(total);
  }
  const sum = offset + BigInt(date.getTime());
  if (!fitsLong(sum)) throw new CommandError('Overflow', 'date overflow in $add');
  const millis = Number(sum);
  return new Date(millis);
}

/** `{$add: [<expression>, ...]}`. */
export const add: ExpressionOperator = {
  name: '$add',
  parse(arg, scope) {
    const args = scope.parseArguments(arg);
    return (frame) => addValues(args.map((a) => a(frame)));
  },
};
