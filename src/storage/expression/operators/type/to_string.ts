/** `$toString` (ExpressionConvert to string, BinData in the `auto` format): null for a nullish input. */
import { MISSING } from '../../../values/missing.js';
import type { ExpressionOperator } from '../../types.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toString: <expression>}`. */
export const toString: ExpressionOperator = toTypeOperator('$toString', {
  target: 'string',
  subtype: MISSING,
  format: 'auto',
  littleEndian: true,
});
