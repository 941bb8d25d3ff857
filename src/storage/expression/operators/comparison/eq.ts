/** `$eq` (ExpressionCompare): true when the values are equal. */
import { comparison } from './_internal.js';

/** `{$eq: [<expression>, <expression>]}`. */
export const eq = comparison('$eq', (c) => c === 0);
