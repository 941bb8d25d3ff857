/** `$dayOfWeek` (ExpressionDayOfWeek): the day of the week, 1 (Sunday) – 7 (Saturday), an Int32. */
import { datePartOperator, dayOfWeekOf } from './_internal/parts.js';

/** `{$dayOfWeek: <date> | [<date>] | {date, timezone}}`. */
export const dayOfWeek = datePartOperator('$dayOfWeek', dayOfWeekOf);
