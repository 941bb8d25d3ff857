/** `$toBool` (ExpressionConvert to bool (Value::coerceToBool: numeric zero false, everything else true)): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toBool: <expression>}`. */
export const toBool: ExpressionOperator = toTypeOperator('$toBool', plainOptions('bool'));
