/** `$literal` (ExpressionConstant): its argument as a value, never parsed as an expression. */
import { constant } from '../../value.js';
import type { ExpressionOperator } from '../../types.js';

/** `{$literal: <value>}`. */
export const literal: ExpressionOperator = {
  name: '$literal',
  parse: (arg) => constant(arg),
};
