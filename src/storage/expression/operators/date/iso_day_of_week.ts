/** `$isoDayOfWeek` (ExpressionIsoDayOfWeek): the ISO 8601 day of the week, 1 (Monday) – 7 (Sunday), an Int32. */
import { datePartOperator, isoOf } from './_internal/parts.js';

/** `{$isoDayOfWeek: <date> | [<date>] | {date, timezone}}`. */
export const isoDayOfWeek = datePartOperator('$isoDayOfWeek', (ms, zone) => isoOf(ms, zone).isoDayOfWeek);
