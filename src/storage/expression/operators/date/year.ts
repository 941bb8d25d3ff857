/** `$year` (ExpressionYear): the calendar year of the date in its zone, an Int32. */
import { datePartOperator, partsOf } from './_internal/parts.js';

/** `{$year: <date> | [<date>] | {date, timezone}}`. */
export const year = datePartOperator('$year', (ms, zone) => partsOf(ms, zone).year);
