/** `$cmp` (ExpressionCompare): the comparison itself: -1, 0 or 1. */
import { comparison } from './_internal.js';

/** `{$cmp: [<expression>, <expression>]}`. */
export const cmp = comparison('$cmp', (c) => c);
