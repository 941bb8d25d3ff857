/** `$toDecimal` (ExpressionConvert to decimal (doubles to 15 significant digits)): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toDecimal: <expression>}`. */
export const toDecimal: ExpressionOperator = toTypeOperator('$toDecimal', plainOptions('decimal'));
