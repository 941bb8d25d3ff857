/** `$toDate` (ExpressionConvert to date (strings read as dates in UTC, numbers as milliseconds)): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toDate: <expression>}`. */
export const toDate: ExpressionOperator = toTypeOperator('$toDate', plainOptions('date'));
