/** `$gte` (ExpressionCompare): true when the first value is greater or equal. */
import { comparison } from './_internal.js';

/** `{$gte: [<expression>, <expression>]}`. */
export const gte = comparison('$gte', (c) => c >= 0);
