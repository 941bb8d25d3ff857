/** `$hour` (ExpressionHour): the hour, 0–23, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$hour: <date> | [<date>] | {date, timezone}}`. */
export const hour = datePartOperator('$hour', (ms, zone) => partsOf(ms, zone).hour);
