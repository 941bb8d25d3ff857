/** `$minute` (ExpressionMinute): the minute, 0–59, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$minute: <date> | [<date>] | {date, timezone}}`. */
export const minute = datePartOperator('$minute', (ms, zone) => partsOf(ms, zone).minute);
