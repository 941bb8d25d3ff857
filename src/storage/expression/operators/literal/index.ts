/** The literal operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { const_ } from './const.js';
import { literal } from './literal.js';

/** Literal expression operators. */
export const LITERAL: readonly ExpressionOperator[] = [
  const_,
  literal,
];
