/** `$const`: the older spelling of `$literal`. */
import { constant } from '../../value.js';
import type { ExpressionOperator } from '../../types.js';

/** `{$const: <value>}`. */
export const const_: ExpressionOperator = {
  name: '$const',
  parse: (arg) => constant(arg),
};
