/** The date and timestamp operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { dateAdd } from './date_add.js';
import { dateDiff } from './date_diff.js';
import { dateFromParts } from './date_from_parts.js';
import { dateFromString } from './date_from_string.js';
import { dateSubtract } from './date_subtract.js';
import { dateToParts } from './date_to_parts.js';
import { dateToString } from './date_to_string.js';
import { dateTrunc } from './date_trunc.js';
import { dayOfMonth } from './day_of_month.js';
import { dayOfWeek } from './day_of_week.js';
import { dayOfYear } from './day_of_year.js';
import { hour } from './hour.js';
import { isoDayOfWeek } from './iso_day_of_week.js';
import { isoWeek } from './iso_week.js';
import { isoWeekYear } from './iso_week_year.js';
import { millisecond } from './millisecond.js';
import { minute } from './minute.js';
import { month } from './month.js';
import { second } from './second.js';
import { tsIncrement } from './ts_increment.js';
import { tsSecond } from './ts_second.js';
import { week } from './week.js';
import { year } from './year.js';

/** Date and timestamp expression operators. */
export const DATE: readonly ExpressionOperator[] = [
  dateAdd,
  dateDiff,
  dateFromParts,
  dateFromString,
  dateSubtract,
  dateToParts,
  dateToString,
  dateTrunc,
  dayOfMonth,
  dayOfWeek,
  dayOfYear,
  hour,
  isoDayOfWeek,
  isoWeek,
  isoWeekYear,
  millisecond,
  minute,
  month,
  second,
  tsIncrement,
  tsSecond,
  week,
  year,
];
