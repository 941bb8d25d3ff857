/** `$ne` (ExpressionCompare): true when the values differ. */
import { comparison } from './_internal.js';

/** `{$ne: [<expression>, <expression>]}`. */
export const ne = comparison('$ne', (c) => c !== 0);
