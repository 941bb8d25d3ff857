/** `$lte` (ExpressionCompare): true when the first value is less or equal. */
import { comparison } from './_internal.js';

/** `{$lte: [<expression>, <expression>]}`. */
export const lte = comparison('$lte', (c) => c <= 0);
