/** `$toUUID` (8.2): `$convert` to BinData of subtype 4 in the `uuid` format; null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toUUID: <expression>}`. */
export const toUUID: ExpressionOperator = toTypeOperator(
  '$toUUID',
  { target: 'binData', subtype: 4, format: 'uuid', littleEndian: true },
);
