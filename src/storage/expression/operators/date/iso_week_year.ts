/** `$isoWeekYear` (ExpressionIsoWeekYear): the ISO 8601 week-numbering year, an Int64 (mongod returns a long long). */
import { datePartOperator, isoWeekYearOf } from './_internal/parts.js';

/** `{$isoWeekYear: <date> | [<date>] | {date, timezone}}`. */
export const isoWeekYear = datePartOperator('$isoWeekYear', isoWeekYearOf);
