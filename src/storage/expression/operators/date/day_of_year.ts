/** `$dayOfYear` (ExpressionDayOfYear): the day of the year, 1–366, an Int32. */
import { datePartOperator, dayOfYearOf } from './_internal/parts.js';

/** `{$dayOfYear: <date> | [<date>] | {date, timezone}}`. */
export const dayOfYear = datePartOperator('$dayOfYear', dayOfYearOf);
