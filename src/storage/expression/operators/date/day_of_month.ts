/** `$dayOfMonth` (ExpressionDayOfMonth): the day of the month, 1–31, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$dayOfMonth: <date> | [<date>] | {date, timezone}}`. */
export const dayOfMonth = datePartOperator('$dayOfMonth', (ms, zone) => partsOf(ms, zone).day);
