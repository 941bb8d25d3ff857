/** `$gt` (ExpressionCompare): true when the first value is greater. */
import { comparison } from './_internal.js';

/** `{$gt: [<expression>, <expression>]}`. */
export const gt = comparison('$gt', (c) => c > 0);
