/** `$week` (ExpressionWeek): the week of the year, 0–53, weeks starting on Sunday (days before the first Sunday are week 0), an Int32. */
import { datePartOperator, weekOf } from './_internal/parts.js';

/** `{$week: <date> | [<date>] | {date, timezone}}`. */
export const week = datePartOperator('$week', weekOf);
