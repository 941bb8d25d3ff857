/**
 * `$log` (ExpressionLog): the logarithm of a number in a base, a Double (a Decimal128 when
 * either is one and the arguments are valid); non-numbers are 28756 / 28757, a non-positive
 * number 28758, a base not positive or equal to 1 28759; null or missing makes null.
 */
import type { Decimal128 } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { compareParts, encodeDecimal } from '../../../values/decimal.js';
import { decimalLog } from '../../../values/decimal_math.js';
import { formatDoubleShort } from '../../../values/format.js';
import { doubleOf, numKind, toDecimalParts, toDouble } from '../../../values/numeric.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { isNullish, typeName } from '../../value.js';

const ZERO = { kind: 'finite', negative: false, coefficient: 0n, exponent: 0 } as const;
const ONE = { kind: 'finite', negative: false, coefficient: 1n, exponent: 0 } as const;

/** `$log` of two evaluated operands. */
function logValue(x: unknown, base: unknown): unknown {
  if (isNullish(x) || isNullish(base)) return null;
  const kx = numKind(x);
  const kb = numKind(base);
  if (kx === null) throw new CommandError(28756, `$log's argument must be numeric, not ${typeName(x)}`);
  if (kb === null) throw new CommandError(28757, `$log's base must be numeric, not ${typeName(base)}`);
  if (kx === 'decimal' || kb === 'decimal') {
    const px = toDecimalParts(x);
    const pb = toDecimalParts(base);
    if (px.kind !== 'nan' && pb.kind !== 'nan' && compareParts(px, ZERO) > 0 && compareParts(pb, ZERO) > 0 && compareParts(pb, ONE) !== 0) {
      return decimalLog(encodeDecimal(px), encodeDecimal(pb) as Decimal128);
    }
  }
  const dx = toDouble(x);
  const db = toDouble(base);
  if (!(dx > 0 || Number.isNaN(dx))) {
    throw new CommandError(28758, `$log's argument must be a positive number, but is ${formatDoubleShort(dx)}`);
  }
  if (!((db > 0 && db !== 1) || Number.isNaN(db))) {
    throw new CommandError(28759, `$log's base must be a positive number not equal to 1, but is ${formatDoubleShort(db)}`);
  }
  return doubleOf(Math.log(dx) / Math.log(db));
}

/** `{$log: [<number>, <base>]}`. */
export const log: ExpressionOperator = {
  name: '$log',
  parse(arg, scope) {
    const [a, b] = scope.parseFixedArguments('$log', arg, 2) as [Evaluator, Evaluator];
    return (frame) => logValue(a(frame), b(frame));
  },
};
