/** `$lt` (ExpressionCompare): true when the first value is less. */
import { comparison } from './_internal.js';

/** `{$lt: [<expression>, <expression>]}`. */
export const lt = comparison('$lt', (c) => c < 0);
