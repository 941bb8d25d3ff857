/** `$toLong` (ExpressionConvert to long (doubles and decimals truncated, failing out of range)): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toLong: <expression>}`. */
export const toLong: ExpressionOperator = toTypeOperator('$toLong', plainOptions('long'));
