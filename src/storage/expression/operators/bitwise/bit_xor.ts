/** `$bitXor` (ExpressionBitXor): the bitwise exclusive or of Int32 / Int64 arguments (`_internal.ts`). */
import type { ExpressionOperator } from '../../types.js';
import { bitwiseOperator } from './_internal.js';

/** `{$bitXor: [<integer>, ...]}`. */
export const bitXor: ExpressionOperator = bitwiseOperator('$bitXor', 0n, (a, b) => a ^ b);
