/** `$month` (ExpressionMonth): the month, 1–12, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$month: <date> | [<date>] | {date, timezone}}`. */
export const month = datePartOperator('$month', (ms, zone) => partsOf(ms, zone).month);
