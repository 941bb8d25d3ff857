/** The conditional operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { cond } from './cond.js';
import { ifNull } from './if_null.js';
import { switch_ } from './switch.js';

/** Conditional expression operators. */
export const CONDITIONAL: readonly ExpressionOperator[] = [
  cond,
  ifNull,
  switch_,
];
