/** `$second` (ExpressionSecond): the second, 0–59, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$second: <date> | [<date>] | {date, timezone}}`. */
export const second = datePartOperator('$second', (ms, zone) => partsOf(ms, zone).second);
