/** `$toUUID` (8.2): a UUID string as a BinData of subtype 4; null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { convertToBinData } from './_internal/to_bin_data.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toUUID: <expression>}`. */
export const toUUID: ExpressionOperator = toTypeOperator(
  '$toUUID',
  { target: 'binData', subtype: 4, format: 'uuid', littleEndian: true },
  convertToBinData,
);
