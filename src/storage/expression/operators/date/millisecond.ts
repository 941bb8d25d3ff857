/** `$millisecond` (ExpressionMillisecond): the millisecond, 0–999, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$millisecond: <date> | [<date>] | {date, timezone}}`. */
export const millisecond = datePartOperator('$millisecond', (ms, zone) => partsOf(ms, zone).millisecond);
