/** `$toDouble` (ExpressionConvert to double): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toDouble: <expression>}`. */
export const toDouble: ExpressionOperator = toTypeOperator('$toDouble', plainOptions('double'));
