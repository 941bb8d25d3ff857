/** `$bitOr` (ExpressionBitOr): the bitwise or of Int32 / Int64 arguments (`_internal.ts`). */
import type { ExpressionOperator } from '../../types.js';
import { bitwiseOperator } from './_internal.js';

/** `{$bitOr: [<integer>, ...]}`. */
export const bitOr: ExpressionOperator = bitwiseOperator('$bitOr', 0n, (a, b) => a | b);
