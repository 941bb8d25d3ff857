/**
 * `$dateAdd` (ExpressionDateAdd): `startDate` plus `amount` `unit`s in `timezone` (UTC when
 * absent); days and larger move the zone's wall clock, months clamped to the month's last day.
 * Null when any argument is null or missing.
 */
import type { ExpressionOperator } from '../../types.js';
import { parseDateArithmetic } from './_internal/date_add.js';

/** `{$dateAdd: {startDate, unit, amount, timezone?}}`. */
export const dateAdd: ExpressionOperator = {
  name: '$dateAdd',
  parse: (arg, scope) => parseDateArithmetic('$dateAdd', arg, scope),
};
