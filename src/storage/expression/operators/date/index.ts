/** The date and timestamp operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { dateAdd } from './date_add.js';
import { dateDiff } from './date_diff.js';
import { dateSubtract } from './date_subtract.js';
import { dateTrunc } from './date_trunc.js';
import { tsIncrement } from './ts_increment.js';
import { tsSecond } from './ts_second.js';

/** Date and timestamp expression operators. */
export const DATE: readonly ExpressionOperator[] = [
  dateAdd,
  dateDiff,
  dateSubtract,
  dateTrunc,
  tsIncrement,
  tsSecond,
];
