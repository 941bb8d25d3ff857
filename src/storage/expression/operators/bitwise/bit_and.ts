/** `$bitAnd` (ExpressionBitAnd): the bitwise and of Int32 / Int64 arguments (`_internal.ts`). */
import type { ExpressionOperator } from '../../types.js';
import { bitwiseOperator } from './_internal.js';

/** `{$bitAnd: [<integer>, ...]}`. */
export const bitAnd: ExpressionOperator = bitwiseOperator('$bitAnd', -1n, (a, b) => a & b);
