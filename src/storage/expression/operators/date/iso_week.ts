/** `$isoWeek` (ExpressionIsoWeek): the ISO 8601 week, 1–53, an Int32. */
import { datePartOperator, isoOf } from './_internal/parts.js';

/** `{$isoWeek: <date> | [<date>] | {date, timezone}}`. */
export const isoWeek = datePartOperator('$isoWeek', (ms, zone) => isoOf(ms, zone).isoWeek);
