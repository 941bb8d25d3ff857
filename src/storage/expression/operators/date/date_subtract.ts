/**
 * `$dateSubtract` (ExpressionDateSubtract): `$dateAdd` of the negated `amount` (6045000 for the
 * smallest Int64, which has no negation).
 */
import type { ExpressionOperator } from '../../types.js';
import { parseDateArithmetic } from './_internal/date_add.js';

/** `{$dateSubtract: {startDate, unit, amount, timezone?}}`. */
export const dateSubtract: ExpressionOperator = {
  name: '$dateSubtract',
  parse: (arg, scope) => parseDateArithmetic('$dateSubtract', arg, scope),
};
